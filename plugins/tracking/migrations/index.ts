import type { Migration } from '../../../core';
import { searchesAndLinks } from './0001-searches-and-links';
import { recentDrops } from './0002-recent-drops';
import { demoRows } from './0003-demo-rows';
import { siteDrops } from './0004-site-drops';
import { funnels } from './0005-funnels';

/** Tables of the tracking plugin beyond the kernel's statistics schema, in order. */
export const trackingMigrations: readonly Migration[] = [searchesAndLinks, recentDrops, demoRows, siteDrops, funnels];
