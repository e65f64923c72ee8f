import type { Migration } from '../db/migrator';
import { coreTables } from './0001-core-tables';
import { schedulerTables } from './0002-scheduler';
import { statisticsTables } from './0003-statistics';
import { statisticsSummaries } from './0004-statistics-summaries';
import { statisticsMonthRollups } from './0005-statistics-month-rollups';
import { statisticsMonthTotals } from './0006-statistics-month-totals';
import { rateLimits } from './0007-rate-limits';
import { exactLogins } from './0008-exact-logins';
import { appPasswordIds } from './0009-app-password-ids';
import { statisticsConversionSketches } from './0010-statistics-conversion-sketches';
import { sitesTables } from './0011-sites';
import { siteScopedStatistics } from './0012-site-scoped-statistics';
import { sessionScreenAndOsVersion } from './0013-session-screen-and-os-version';
import { statisticsDayBlocks } from './0014-statistics-day-blocks';

/** The kernel's own schema, in order. Plugins list theirs in their manifest. */
export const coreMigrations: readonly Migration[] = [
  coreTables,
  schedulerTables,
  statisticsTables,
  statisticsSummaries,
  statisticsMonthRollups,
  statisticsMonthTotals,
  rateLimits,
  exactLogins,
  appPasswordIds,
  statisticsConversionSketches,
  sitesTables,
  siteScopedStatistics,
  sessionScreenAndOsVersion,
  statisticsDayBlocks,
];
