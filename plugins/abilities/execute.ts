import { type StatisticsAbility, type StatisticsExecutor, type StatisticsInput, abilitySite } from './statistics';
import { describeError, isoDay, type PluginContext, SvcError, type SvcLogger, type SvcServices } from '../../core';
import { columns } from './labels';
import type { AbilityRateLimits } from './rate-limit';

/** The datatable each ability runs, and the `type` filter appended to its filters (§4.5). */
const TABLES: Readonly<Record<string, { id: string; type: string }>> = {
  'svc/sales-data': { id: 'sales_products', type: 'purchase' },
  'svc/subscriptions-data': { id: 'subscription_products', type: 'subscription' },
};

const LIMIT = { min: 1, max: 500 };
const GROUP_ALIASES: Readonly<Record<string, string>> = { utm_source: 'source' };

function groupsOf(requested: readonly string[], ability: StatisticsAbility): string[] {
  const groups = [...new Set(requested.map((g) => GROUP_ALIASES[g] ?? g))];
  return groups.length ? groups : [...ability.defaultGroupBy];
}

/** The datatable query of an ability input: unix dates as site-timezone days, 0 meaning the datatable's default. */
function queryOf(input: StatisticsInput, table: { type: string }, timezone: string): Record<string, unknown> {
  const day = (unix: number) => (unix > 0 ? isoDay(unix, timezone) : undefined);
  // A filter without a value filters nothing, as on the REST routes.
  const filters = input.filters.filter((f) => f.value !== undefined && f.value !== null && f.value !== '');
  return {
    date_start: day(input.date_start),
    date_end: day(input.date_end),
    filters: [...filters, { key: 'type', value: table.type }],
    limit: Math.min(LIMIT.max, Math.max(LIMIT.min, input.limit)),
  };
}

type SalesService = SvcServices['sales'];

export interface ExecutorDeps {
  sales: SalesService;
  limits: AbilityRateLimits;
  sites: PluginContext['sites'];
  logger: SvcLogger;
}

/**
 * Runs an ability once its permission passed and its input is valid: the
 * per-user rate limit, then the datatable through the sales service (the
 * same run as `GET {api_base}/data/ecommerce/datatable/{id}`), answered as
 * §2.11. A failure of the query itself is logged and answered as
 * `svc_abilities_execution_failed`; coded errors (bad filters, dates,
 * groupings, metrics) pass through. The rows are those of the site the
 * input names, read on that site's calendar.
 */
export function datatableExecutor({ sales, limits, sites, logger }: ExecutorDeps): StatisticsExecutor {
  return async (ability, input, principal) => {
    const site = await abilitySite(sites, input, principal);
    await limits.consume(ability.slug, principal.user!.id);
    const table = TABLES[ability.name]!;
    const groupBy = groupsOf(input.group_by, ability);
    let run: Awaited<ReturnType<SalesService['datatable']>>;
    try {
      // The sales service keeps the requested metrics on the allow-list, else the defaults (§4.5).
      run = await sales.datatable(table.id, {
        siteId: site.id,
        query: { ...queryOf(input, table, site.timezone), metrics: [...new Set(input.metrics)], group_by: groupBy },
        defaultMetrics: ability.defaultMetrics,
      });
    } catch (err) {
      if (err instanceof SvcError) throw err;
      logger.error({ err, ability: ability.name }, `ability ${ability.name} failed: ${describeError(err)}`);
      throw new SvcError('svc_abilities_execution_failed', 'The statistics could not be read; the problem has been logged.', 500);
    }
    return { type: 'datatable', dimensions: columns(groupBy), metrics: columns(run.metrics), rows: run.rows, row_count: run.rows.length };
  };
}
