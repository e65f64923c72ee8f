import type { Capability } from '../auth/types';
import { badRequest, forbidden, SvcError } from '../errors';
import { ok } from '../http/envelope';
import type { RouteDefinition } from '../http/rest-router';
import { RestResponse, type RestRequest } from '../http/rest-types';
import { toCsv } from './csv';
import { columnsOf, DETAILS_MAX_ROWS, parseDetails, searchAndSort, wantsDetails } from './details';
import { zipStream, type ZipFile } from './export-zip';
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
  /**
   * The CSV files this data type adds to its tab's export, each run with the
   * export's period and filters plus `query` (e.g. `{ group_by: 'browser' }`).
   * Its answer must then be an array of rows; such a type also answers `?format=csv`.
   */
  csvFiles?: ReadonlyArray<{ name: string; query?: Readonly<Record<string, string>> }>;
  run(request: DataRequest, context: DataRunContext): Promise<unknown>;
}

/** `GET {api_base}/data/datatable/{id}`: rows, also offered as CSV. */
export interface DatatableDef extends DataDefBase {
  /** Applied whatever the request says (e.g. `status: '404'` for not-found-pages). */
  forced?: { status?: StatusFilter; filters?: StatsFilter[] };
  run(request: DataRequest, context: DataRunContext): Promise<Array<Record<string, unknown>>>;
}

const ID = /^[a-z_-]+$/;
/** How long one export may run its queries before it gives up (each query also has the statement limit). */
const EXPORT_MAX_MS = 60_000;

const isRows = (value: unknown): value is Array<Record<string, unknown>> =>
  Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row));

function csvResponse(rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[], filename: string): RestResponse {
  return new RestResponse(200, toCsv(rows, columns), {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
  });
}

function formatOf(query: Readonly<Record<string, unknown>>): 'json' | 'csv' {
  const format = query.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw badRequest('format must be json or csv.', 'svc_invalid_param', { field: 'format' });
  return format;
}

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
      handler: async (req) => {
        // `format` is read only where a type writes CSV; elsewhere it stays ignored, as it always was.
        const format = def.csvFiles ? formatOf(req.query) : 'json';
        const parsed = this.parseFor(def, req.query, req.site.timezone);
        // The CSV of a data type holds all its rows.
        const request = format === 'csv' ? { ...parsed, limit: DETAILS_MAX_ROWS } : parsed;
        const data = await def.run(request, { queryId: `data_${def.id}`, siteId: req.site.id, timezone: req.site.timezone, rest: req });
        if (format === 'json') return ok(data);
        if (!isRows(data)) throw badRequest(`${def.id} has no rows to write as CSV.`, 'svc_invalid_param', { field: 'format' });
        return csvResponse(data, [...request.groupBy, ...request.metrics], `${def.id}-${request.dateStart}-${request.dateEnd}.csv`);
      },
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
        const format = formatOf(req.query);
        const request = this.parseFor(def, req.query, req.site.timezone);
        const context = { queryId: `datatable_${def.id}`, siteId: req.site.id, timezone: req.site.timezone, rest: req };
        const columns = [...request.groupBy, ...request.metrics];
        const filename = `${def.id}-${request.dateStart}-${request.dateEnd}.csv`;
        if (!wantsDetails(req.query)) {
          const rows = await def.run(request, context);
          return format === 'json' ? ok(rows) : csvResponse(rows, columns, filename);
        }
        const rows = await def.run({ ...request, limit: DETAILS_MAX_ROWS }, context);
        const every = columnsOf(request.groupBy, request.metrics, rows);
        const details = parseDetails(req.query, every, rows.length === 0);
        const all = searchAndSort(rows, details, request.groupBy);
        if (format === 'csv') return csvResponse(all, columns, filename);
        const page = all.slice(details.offset, details.offset + request.limit);
        return ok({ rows: page, total: all.length, offset: details.offset, limit: request.limit, columns: every, dimensions: request.groupBy });
      },
    };
  }

  /** Routes answering unknown ids below `/data` (added after every plugin registered). */
  fallbackRoutes(): RouteDefinition[] {
    return [
      ...this.exportRoutes(),
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

  /**
   * `GET {api_base}/data/export/{tab}`: a zip of one CSV per datatable of the
   * tab (all rows, up to DETAILS_MAX_ROWS) and per CSV file its data types
   * declare, for the request's period, filters and site. A table that refuses
   * the filters is left out and named in `skipped.csv`.
   */
  private exportRoutes(): RouteDefinition[] {
    const tabs = new Map<string, Capability>();
    for (const def of [...this.tables.values(), ...this.types.values()]) if (!tabs.has(def.tab)) tabs.set(def.tab, def.capability ?? 'view_svc_statistics');
    return [...tabs].map(([tab, capability]) => ({
      method: 'GET' as const,
      path: `/data/export/${tab}`,
      capability,
      meta: { tab, dataId: 'export' },
      handler: async (req: RestRequest) => {
        const query = Object.fromEntries(Object.entries(req.query).filter(([key]) => !['format', 'limit', 'group_by', 'metrics'].includes(key)));
        const started = Date.now();
        const files: ZipFile[] = [];
        const skipped: Array<{ file: string; reason: string }> = [];
        const same = (def: DataDefBase) => def.tab === tab && (def.capability ?? 'view_svc_statistics') === capability;
        const jobs = [
          ...[...this.tables.values()].filter(same).map((def) => ({ name: def.id, def, query: {} as Readonly<Record<string, string>> })),
          ...[...this.types.values()].filter(same).flatMap((def) => (def.csvFiles ?? []).map((file) => ({ name: file.name, def, query: file.query ?? {} }))),
        ];
        let period = '';
        for (const job of jobs) {
          if (Date.now() - started > EXPORT_MAX_MS) throw new SvcError('svc_export_timeout', 'The export took too long: choose a shorter period or fewer filters.', 503);
          let request: DataRequest;
          try {
            request = this.parseFor(job.def, { ...query, ...job.query }, req.site.timezone);
          } catch (err) {
            if (err instanceof SvcError && err.code === 'svc_invalid_filter') {
              skipped.push({ file: `${job.name}.csv`, reason: err.message });
              continue;
            }
            throw err;
          }
          period = `${request.dateStart}-${request.dateEnd}`;
          const context = { queryId: `export_${job.name}`, siteId: req.site.id, timezone: req.site.timezone, rest: req };
          const rows = await job.def.run({ ...request, limit: DETAILS_MAX_ROWS }, context);
          if (isRows(rows)) files.push({ name: `${job.name}.csv`, text: toCsv(rows, [...request.groupBy, ...request.metrics]) });
        }
        if (skipped.length) files.push({ name: 'skipped.csv', text: toCsv(skipped, ['file', 'reason']) });
        return new RestResponse(200, await zipStream(files), {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="${tab}-${period || 'export'}.zip"`,
        });
      },
    }));
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
