import type { Migration } from '../../../core/db/migrator';
import { reportTables } from './0001-reports';

/** The reports plugin's schema, in order. */
export const reportMigrations: readonly Migration[] = [reportTables];
