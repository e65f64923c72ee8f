import { ManualClock } from '../../core/clock';
import { RateLimiter } from '../../core/db/rate-limiter';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';
import { eventually } from '../helpers/wait';

describe('options, transients and the daily maintenance', () => {
  let tk: TestKernel;
  const clock = new ManualClock('2024-03-10T12:00:00Z');
  const optionsTable = () => tk.kernel.db.quote(tk.kernel.db.table('options'));
  /** Writes an option behind the service's back, the way another app node would. */
  const writeFromOtherNode = (name: string, value: unknown) =>
    tk.kernel.db.execute(`UPDATE ${optionsTable()} SET option_value = ? WHERE option_name = ?`, [JSON.stringify(value), name]);

  beforeAll(async () => {
    tk = await createTestKernel({ clock });
  });
  afterAll(() => tk?.close());

  it('serves autoloaded options from memory and reloads them after a few seconds', async () => {
    const { options } = tk.kernel;
    await options.set('cached_opt', { a: 1 });
    expect(await options.get('cached_opt')).toEqual({ a: 1 });
    await writeFromOtherNode('cached_opt', { a: 2 });
    expect(await options.get('cached_opt')).toEqual({ a: 1 });
    clock.advance(6);
    expect(await options.get('cached_opt')).toEqual({ a: 2 });
  });

  it('gives the autoloaded options without waiting: fresh after a change here, reloaded in the background when old', async () => {
    const { options } = tk.kernel;
    await options.set('snap_opt', 'one');
    expect(options.snapshot()).toBeNull();
    const loaded = await options.loaded();
    expect(options.snapshot()).toBe(loaded);
    expect(loaded.values.get('snap_opt')).toBe('one');

    await writeFromOtherNode('snap_opt', 'two');
    expect(options.snapshot()!.values.get('snap_opt')).toBe('one');
    clock.advance(6);
    // Old values at once; the new ones once the background load is in.
    expect(options.snapshot()!.values.get('snap_opt')).toBe('one');
    await eventually(() => options.snapshot()!.values.get('snap_opt') === 'two', 5_000);
    const reloaded = options.snapshot()!;
    expect(reloaded.values.get('snap_opt')).toBe('two');
    expect(reloaded.version).not.toBe(loaded.version);
  });

  it('reads options stored without autoload from the database on every get', async () => {
    const { options } = tk.kernel;
    await options.set('lazy_opt', 'one', { autoload: false });
    expect(await options.get('lazy_opt')).toBe('one');
    await writeFromOtherNode('lazy_opt', 'two');
    expect(await options.get('lazy_opt')).toBe('two');
    const [row] = await tk.kernel.db.select<{ autoload: unknown }>(`SELECT autoload FROM ${optionsTable()} WHERE option_name = ?`, ['lazy_opt']);
    expect(Number(row!.autoload)).toBe(0);
  });

  it('adds an option only when it is absent', async () => {
    const { options } = tk.kernel;
    expect(await options.add('once', 'first')).toBe(true);
    expect(await options.add('once', 'second')).toBe(false);
    expect(await options.get('once')).toBe('first');
    await options.delete('once');
    expect(await options.get('once', 'fallback')).toBe('fallback');
    expect(await options.add('once', 'third')).toBe(true);
    expect(await options.get('once')).toBe('third');
  });

  it('replaces a value only when it still holds what the caller read: of concurrent replacements one wins', async () => {
    const { options } = tk.kernel;
    await options.set('cas_opt', { round: 1 }, { autoload: false });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => options.compareAndSet('cas_opt', { round: 1 }, { round: 1, by: n })));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true) + 1;
    expect(await options.get('cas_opt')).toEqual({ round: 1, by: winner });
    expect(await options.compareAndSet('cas_opt', { round: 1 }, { round: 2 })).toBe(false);
    expect(await options.compareAndSet('missing_opt', { round: 1 }, { round: 2 })).toBe(false);
    expect(await options.get('missing_opt')).toBeUndefined();
  });

  it('keeps JSON types and refuses undefined', async () => {
    const { options } = tk.kernel;
    await options.set('typed', { n: 1.5, s: 'é✓', list: [true, null] });
    expect(await options.get('typed')).toEqual({ n: 1.5, s: 'é✓', list: [true, null] });
    await options.set('falsy', 0);
    expect(await options.get('falsy', 99)).toBe(0);
    await expect(options.set('bad', undefined)).rejects.toThrow(TypeError);
  });

  it('expires transients on the clock and keeps those without expiry', async () => {
    const { transients } = tk.kernel;
    await transients.set('short', { token: 'abc' }, 60);
    await transients.set('forever', 'kept');
    clock.advance(59);
    expect(await transients.get('short')).toEqual({ token: 'abc' });
    clock.advance(1);
    expect(await transients.get('short')).toBeUndefined();
    expect(await transients.get('forever')).toBe('kept');
    await transients.set('short', 'renewed', 10);
    expect(await transients.get('short')).toBe('renewed');
    await expect(transients.set('x', 1, -1)).rejects.toThrow(RangeError);
    await expect(transients.set('x', 1, Number.NaN)).rejects.toThrow(RangeError);
  });

  it('purges expired transients and stale rate-limit rows on svc_daily, and nothing else', async () => {
    const { transients, db } = tk.kernel;
    // 'short' from the test above (10 s left) expires too.
    await transients.set('old_1', 1, 30);
    await transients.set('old_2', 2, 30);
    await transients.set('fresh', 3, 3600);
    await transients.set('forever', 'kept');
    clock.advance(31);
    await new RateLimiter(db, clock).hit({ name: 'maint', max: 5, window: 60 }, 'live-key');
    const limits = db.quote(db.table('rate_limits'));
    await db.execute(`INSERT INTO ${limits} (bucket, window_start, hits, expires) VALUES (?, ?, ?, ?)`, ['maint:stale', clock.unix() - 120, 3, clock.unix() - 60]);

    await tk.kernel.scheduler.runRecurring('svc_daily', clock.now());

    const names = (await db.select<{ name: string }>(`SELECT name FROM ${db.quote(db.table('transients'))} ORDER BY name`)).map((r) => r.name);
    expect(names).toEqual(['forever', 'fresh']);
    const keys = (await db.select<{ bucket: string }>(`SELECT bucket FROM ${limits} WHERE bucket LIKE ? ORDER BY 1`, ['maint%'])).map((r) => r.bucket);
    expect(keys).toEqual(['maint:live-key']);
    expect(tk.logs.some((l) => l.msg === 'daily maintenance done' && l.expiredTransients === 3 && l.staleRateLimits === 1)).toBe(true);
  });
});
