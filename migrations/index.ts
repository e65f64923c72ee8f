import type { Migration } from '../core/db/migrator';
import { coreTables } from './0001-core-tables';
import { schedulerTables } from './0002-scheduler';
import { statisticsTables } from './0003-statistics';
import { statisticsSummaries } from './0004-statistics-summaries';
import { statisticsMonthRollups } from './0005-statistics-month-rollups';
import { statisticsMonthTotals } from './0006-statistics-month-totals';

/** The kernel's own schema, in order. Plugins list theirs in their manifest. */
export const coreMigrations: readonly Migration[] = [coreTables, schedulerTables, statisticsTables, statisticsSummaries, statisticsMonthRollups, statisticsMonthTotals];
