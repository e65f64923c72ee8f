import type { Capability } from '../auth/types';
import { badRequest, forbidden, SvcError } from '../errors';
import { ok } from '../http/envelope';
import type { RouteDefinition } from '../http/rest-router';
import { RestResponse, type RestRequest } from '../http/rest-types';
import { toCsv } from './csv';
import type { AllowList, DataRequest } from './request';
import type { StatsFilter, StatusFilter } from './types';

export interface DataRunContext {
  /** Explicit id for logs: `data_<type>`, `datatable_<id>` or one a caller chose (`report_block_pages`). */
  queryId: string;
  /** The site whose statistics the run reads. */
  siteId: number;
  /** The zone its dates are read in: the site's (default: the install's, `SVC_TIMEZONE`). */
  timezone?: string;
  /** The REST request when the run comes from the data route. */
  rest?: RestRequest;
}

interface DataDefBase {
  id: string;
  /** Dashboard tab the data belongs to (route meta, for share-link guards). */
  tab: string;
  /** Default `view_svc_statistics`. */
  capability?: Capability;
  /** Path prefix below `{api_base}`; default `/data` (the sales plugin uses `/data/ecommerce`). */
  base?: string;
  allow: AllowList;
}

/** `GET {api_base}/data/{id}`. */
export interface DataTypeDef extends DataDefBase {
  run(request: DataRequest, context: DataRunContext): Promise<unknown>;
}

/** `GET {api_base}/data/datatable/{id}`: rows, also offered as CSV. */
export interface DatatableDef extends DataDefBase {
  /** Applied whatever the request says (e.g. `status: '404'` for not-found-pages). */
  forced?: { status?: StatusFilter; filters?: StatsFilter[] };
  run(request: DataRequest, context: DataRunContext): Promise<Array<Record<string, unknown>>>;
}

const ID = /^[a-z_-]+$/;

/** Data types and datatables by id; each becomes a REST route with meta `{ tab, dataId }`. */
export class DataRegistry {
  private readonly types = new Map<string, DataTypeDef>();
  private readonly tables = new Map<string, DatatableDef>();

  constructor(private readonly parse: (query: Readonly<Record<string, unknown>>, allow: AllowList, timezone?: string) => DataRequest) {}

  typeRoute(def: DataTypeDef): RouteDefinition {
    this.claim(this.types, def, 'data type');
    return {
      method: 'GET',
      path: `${def.base ?? '/data'}/${def.id}`,
      capability: def.capability ?? 'view_svc_statistics',
      meta: { tab: def.tab, dataId: def.id },
      handler: async (req) => ok(await def.run(this.parseFor(def, req.query, req.site.timezone), { queryId: `data_${def.id}`, siteId: req.site.id, timezone: req.site.timezone, rest: req })),
    };
  }

  tableRoute(def: DatatableDef): RouteDefinition {
    this.claim(this.tables, def, 'datatable');
    return {
      method: 'GET',
      path: `${def.base ?? '/data'}/datatable/${def.id}`,
      capability: def.capability ?? 'view_svc_statistics',
      meta: { tab: def.tab, dataId: def.id, datatable: true },
      handler: async (req) => {
        const format = req.query.format ?? 'json';
        if (format !== 'json' && format !== 'csv') throw badRequest('format must be json or csv.', 'svc_invalid_param', { field: 'format' });
        const request = this.parseFor(def, req.query, req.site.timezone);
        const rows = await def.run(request, { queryId: `datatable_${def.id}`, siteId: req.site.id, timezone: req.site.timezone, rest: req });
        if (format === 'json') return ok(rows);
        const filename = `${def.id}-${request.dateStart}-${request.dateEnd}.csv`;
        return new RestResponse(200, toCsv(rows, [...request.groupBy, ...request.metrics]), {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${filename}"`,
        });
      },
    };
  }

  /** Routes answering unknown ids below `/data` (added after every plugin registered). */
  fallbackRoutes(): RouteDefinition[] {
    return [
      {
        method: 'GET',
        path: '/data/datatable',
        capability: 'view_svc_statistics',
        handler: () => {
          throw forbidden('Name a datatable: /data/datatable/{id}.', 'svc_forbidden');
        },
      },
      {
        method: 'GET',
        path: '/data/datatable/:id',
        capability: 'view_svc_statistics',
        handler: () => {
          throw new SvcError('svc_unknown_datatable', 'Unknown datatable endpoint.', 404);
        },
      },
      {
        method: 'GET',
        path: '/data/:type',
        capability: 'view_svc_statistics',
        handler: () => {
          throw new SvcError('svc_unknown_data_type', 'Unknown data type.', 404);
        },
      },
    ];
  }

  /** Runs a data type as its route would, for callers such as report blocks. */
  async runType(id: string, query: Readonly<Record<string, unknown>>, context: DataRunContext, base = '/data'): Promise<unknown> {
    const def = this.types.get(`${base}:${id}`);
    if (!def) throw new SvcError('svc_unknown_data_type', 'Unknown data type.', 404);
    return def.run(this.parseFor(def, query, context.timezone), context);
  }

  async runTable(id: string, query: Readonly<Record<string, unknown>>, context: DataRunContext, base = '/data'): Promise<Array<Record<string, unknown>>> {
    const def = this.tables.get(`${base}:${id}`);
    if (!def) throw new SvcError('svc_unknown_datatable', 'Unknown datatable endpoint.', 404);
    return def.run(this.parseFor(def, query, context.timezone), context);
  }

  /** The filters of the data route at `path`, `status` (always accepted) included; null when none has that path. */
  filtersAt(path: string): string[] | null {
    const def =
      [...this.types.values()].find((d) => `${d.base ?? '/data'}/${d.id}` === path) ??
      [...this.tables.values()].find((d) => `${d.base ?? '/data'}/datatable/${d.id}` === path);
    return def ? [...def.allow.filters, 'status'] : null;
  }

  /** Ids with their tab, for guards and report blocks. */
  list(): Array<{ kind: 'type' | 'datatable'; id: string; tab: string; base: string }> {
    return [
      ...[...this.types.values()].map((d) => ({ kind: 'type' as const, id: d.id, tab: d.tab, base: d.base ?? '/data' })),
      ...[...this.tables.values()].map((d) => ({ kind: 'datatable' as const, id: d.id, tab: d.tab, base: d.base ?? '/data' })),
    ];
  }

  private parseFor(def: DataTypeDef | DatatableDef, query: Readonly<Record<string, unknown>>, timezone: string | undefined): DataRequest {
    const request = this.parse(query, def.allow, timezone);
    const forced = 'forced' in def ? def.forced : undefined;
    if (!forced) return request;
    const dims = new Set((forced.filters ?? []).map((f) => f.dimension));
    return {
      ...request,
      status: forced.status ?? request.status,
      filters: [...request.filters.filter((f) => !dims.has(f.dimension)), ...(forced.filters ?? [])],
    };
  }

  private claim<T extends DataDefBase>(map: Map<string, T>, def: T, kind: string): void {
    if (!ID.test(def.id)) throw new Error(`${kind} id ${def.id} must match [a-z_-]+`);
    const key = `${def.base ?? '/data'}:${def.id}`;
    if (map.has(key)) throw new Error(`${kind} ${def.id} is registered twice`);
    map.set(key, def);
  }
}
