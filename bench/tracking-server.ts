import { type BenchDialect, freshDatabase } from './databases';
import { CONNECTIONS, Traffic, siteHost } from './traffic';

/**
 * The server side of the tracking bench, run as its own process (so the load
 * generator does not share its event loop): `node tracking-server.js svc|bound
 * sqlite|mysql [sites]`. It sends its URLs once listening, then answers the bench's
 * questions over IPC (`sites` > 1 serves that many sites, told apart by host): `mark` (CPU time used so far and peak RSS), `stored`
 * (what the database holds), `pipeline <seconds>` (the tracking service called
 * without HTTP), `stop`.
 */

export type ServerKind = 'svc' | 'bound';

export interface Mark {
  /** User + system CPU time of this process, µs. */
  cpuUs: number;
  /** The system (kernel) part of it, µs. */
  systemUs: number;
  /** Peak resident set size, bytes. */
  peakRss: number;
}

/** Stored rows; for svc the page views and the time on page they hold. */
export interface Stored {
  rows: number;
  seconds: number;
}

export interface PipelineRun {
  hits: number;
  ms: number;
  cpuUs: number;
  pageviews: number;
  stored: number;
}

const mark = (): Mark => {
  const cpu = process.cpuUsage();
  return { cpuUs: cpu.user + cpu.system, systemUs: cpu.system, peakRss: process.resourceUsage().maxRSS * 1024 };
};

interface Served {
  urls: Record<string, string>;
  stored(): Promise<Stored>;
  pipeline?(seconds: number): Promise<PipelineRun>;
  stop(): Promise<void>;
}

async function serveBound(dialect: BenchDialect): Promise<Served> {
  const database = await freshDatabase(dialect);
  const { startBound } = await import('./bound-server');
  const bound = await startBound(dialect, database.url);
  return {
    urls: { rest: bound.url, beacon: bound.url },
    stored: async () => ({ rows: await bound.stored(), seconds: 0 }),
    stop: async () => {
      await bound.stop();
      await database.drop();
    },
  };
}

async function serveSvc(dialect: BenchDialect, sites: number): Promise<Served> {
  // Each kind loads only its own modules, so neither's memory holds the other's.
  const { startBenchKernel } = await import('./support');
  const k = await startBenchKernel(dialect, { SVC_PLUGINS: 'tracking' });
  const db = k.kernel.db;
  if (sites > 1) {
    await k.kernel.sites.update(1, { domain: siteHost(1, sites) });
    for (let n = 2; n <= sites; n++) await k.kernel.sites.add({ name: `Site ${n}`, domain: siteHost(n, sites) });
  }
  const statistics = db.quote(db.table('statistics'));
  const stored = async (): Promise<Stored> => {
    const [row] = await db.select<{ n: number; s: number }>(`SELECT COUNT(*) AS n, COALESCE(SUM(time_on_page), 0) AS s FROM ${statistics}`);
    return { rows: Number(row?.n ?? 0), seconds: Number(row?.s ?? 0) };
  };
  return {
    urls: { rest: `${k.api}/track`, beacon: `${k.url}/svc/endpoint` },
    stored,
    async pipeline(seconds) {
      const tracking = k.kernel.services.get('tracking')!;
      const traffic = new Traffic();
      const principal = { user: null, method: 'anonymous' as const, sessionId: null };
      let hits = 0;
      let pageviews = 0;
      const started = Date.now();
      const before = mark().cpuUs;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() - started < seconds * 1000) {
            const hit = traffic.next();
            const headers = { 'user-agent': hit.visitor.agent, 'x-forwarded-for': hit.visitor.ip };
            const result = await tracking.track(hit.payload, { headers, remoteAddress: '127.0.0.1', principal });
            hits++;
            if (hit.kind === 'pageview' && result.recorded) pageviews++;
            traffic.answered(hit, result.recorded, { pageviews: 0, heartbeats: 0, heartbeatSeconds: 0, errors: 0 });
          }
        }),
      );
      const cpuUs = mark().cpuUs - before;
      return { hits, ms: Date.now() - started, cpuUs, pageviews, stored: (await stored()).rows };
    },
    stop: () => k.stop(),
  };
}

async function main(kind: ServerKind, dialect: BenchDialect, sites: number): Promise<void> {
  const served = kind === 'bound' ? await serveBound(dialect) : await serveSvc(dialect, sites);
  process.on('message', (m: string) => {
    const [question, arg] = m.split(' ');
    const reply = async (): Promise<unknown> => {
      if (question === 'mark') return mark();
      if (question === 'stored') return served.stored();
      if (question === 'pipeline' && served.pipeline) return served.pipeline(Number(arg));
      await served.stop();
      process.exit(0);
    };
    reply().then(
      (answer) => process.send!(answer),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
  process.send!(served.urls);
}

if (require.main === module) {
  main(process.argv[2] as ServerKind, process.argv[3] as BenchDialect, Number(process.argv[4] || 1)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
