import type { Migration } from '../../../core';
import { shareTokensTable } from './0001-share-tokens';
import { shareTokenSites } from './0002-sites';

/** The story plugin's schema, in order. */
export const storyMigrations: readonly Migration[] = [shareTokensTable, shareTokenSites];
