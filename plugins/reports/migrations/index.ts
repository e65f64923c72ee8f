import type { Migration } from '../../../core';
import { reportTables } from './0001-reports';
import { reportSends } from './0002-report-sends';
import { reportSites } from './0003-sites';

/** The reports plugin's schema, in order. */
export const reportMigrations: readonly Migration[] = [reportTables, reportSends, reportSites];
