import type { Bench } from './run';
import { startBenchKernel } from './support';

/** Gzipped size budgets of issue 4 (bytes). */
const BUDGETS: Record<string, number> = { 'svc.min.js': 1800, 'svc-cookieless.min.js': 4000 };

/** Bytes of a served file, as it goes over the wire with and without gzip. */
async function sizes(url: string): Promise<{ raw: number; gzip: number }> {
  const [plain, zipped] = await Promise.all(
    ['identity', 'gzip'].map(async (encoding) => {
      const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      if (encoding === 'gzip' && res.headers.get('content-encoding') !== 'gzip') throw new Error(`${url} was not served gzipped`);
      return Number(res.headers.get('content-length'));
    }),
  );
  return { raw: plain!, gzip: zipped! };
}

/**
 * `npm run bench -- tracker-size`: raw and gzipped sizes of the scripts the
 * service serves (the pre-built bundles of dist/), against the budgets, and
 * of the embed snippet in its two forms.
 */
const bench: Bench = {
  name: 'tracker script sizes',
  async run(log) {
    const k = await startBenchKernel('sqlite', { SVC_PLUGINS: 'tracking' });
    try {
      // The kernel's base URL is not where it listens: skip the transport self-test the options would run.
      await k.kernel.options.set('svc_tracking_status', { status: 'rest', last_test: 0 }, { autoload: false });
      log('file                          raw B   gzip B   budget (gzip)');
      const row = (name: string, s: { raw: number; gzip: number }, budget?: number) =>
        log(`${name.padEnd(28)}${String(s.raw).padStart(7)}${String(s.gzip).padStart(9)}   ${budget ? `${budget} ${s.gzip <= budget ? 'ok' : 'OVER'}` : '-'}`);
      for (const file of ['svc.min.js', 'svc-cookieless.min.js', 'svc-goals.min.js']) row(file, await sizes(`${k.url}/svc/js/${file}`), BUDGETS[file]);
      row('embed.js (loader)', await sizes(`${k.url}/svc/embed.js`));
      await k.kernel.options.set('combine_vars_and_script', true);
      row('embed.js (combined)', await sizes(`${k.url}/svc/embed.js`));
    } finally {
      await k.stop();
    }
  },
};

export default bench;
