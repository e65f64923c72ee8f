import { badRequest, nameList, type PluginContext, SvcError } from '../../../core';
import type { DatatableInput, SalesService } from '../contract';
import { BASE, DATATABLE_METRICS } from '../data/register';

/** The `type` filter abilities append to their datatable runs. */
const TABLE_TYPE: Readonly<Record<string, string>> = { sales_products: 'purchase', subscription_products: 'subscription' };

/** The name metric of each datatable and the grouping it needs (rows grouped by source alone have no product name). */
const NAME_OF: Readonly<Record<string, string>> = { sales_products: 'product', subscription_products: 'plan' };

type FilterItem = string | { key?: unknown; value?: unknown };

/** Splits the `type` filter off a filter list given as an array, an object or a JSON string. */
function splitType(raw: unknown): { rest: unknown; type: string | null } {
  let value = raw;
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest('filters is not valid JSON.', 'svc_invalid_filter', { field: 'filters' });
    }
  }
  if (Array.isArray(value)) {
    const typeOf = (f: FilterItem) => (typeof f === 'string' ? (f.startsWith('type:') ? f.slice(5).trim() : null) : f?.key === 'type' ? String(f.value ?? '') : null);
    const types = (value as FilterItem[]).map(typeOf).filter((t): t is string => t !== null);
    return { rest: (value as FilterItem[]).filter((f) => typeOf(f) === null), type: types[0] ?? null };
  }
  if (value && typeof value === 'object') {
    const { type, ...rest } = value as Record<string, unknown>;
    return { rest, type: type === undefined ? null : String(type) };
  }
  return { rest: value, type: null };
}

/**
 * The datatables outside REST, for the abilities work: the same runs as the
 * routes, with the abilities' rules on metrics (requested ∩ allow-list, else
 * the defaults ∩ allow-list, else `svc_abilities_invalid_metrics`; the
 * product or plan name only when rows are products or plans) and the `type`
 * filter (`purchase` / `subscription`) they append.
 */
export function datatableService(ctx: PluginContext): Pick<SalesService, 'datatable'> {
  return {
    async datatable(id: string, input: DatatableInput) {
      const allowed = Object.prototype.hasOwnProperty.call(DATATABLE_METRICS, id) ? DATATABLE_METRICS[id]! : null;
      if (!allowed) throw new SvcError('svc_abilities_unknown_datatable', 'Unknown datatable endpoint.', 404);
      const name = NAME_OF[id]!;
      const groups = nameList(input.query.group_by, 'group_by') ?? [name];
      const shown = (list: readonly string[]) => list.filter((m) => allowed.includes(m) && (m !== name || groups.includes(name)));
      const requested = shown(nameList(input.query.metrics, 'metrics') ?? []);
      const metrics = requested.length ? requested : shown(input.defaultMetrics ?? allowed);
      if (metrics.length === 0) throw new SvcError('svc_abilities_invalid_metrics', 'None of the requested or default metrics is valid for this datatable.', 400);
      const { rest, type } = splitType(input.query.filters);
      if (type !== null && type !== TABLE_TYPE[id]) return { rows: [], metrics };
      const timezone = (await ctx.sites.get(input.siteId))?.timezone;
      const rows = await ctx.statistics.runTable(id, { ...input.query, metrics, filters: rest }, { queryId: `datatable_${id}`, siteId: input.siteId, timezone }, BASE);
      return { rows, metrics };
    },
  };
}
