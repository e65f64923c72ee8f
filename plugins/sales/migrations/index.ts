import type { Migration } from '../../../core/db/migrator';
import { ecommerceTables } from './0001-ecommerce';

/** The sales plugin's schema, in order. */
export const salesMigrations: readonly Migration[] = [ecommerceTables];
