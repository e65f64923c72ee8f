import { ManualClock } from '../../core/clock';
import { createRateLimiter } from '../../core/db/rate-limiter';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

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
    const limiter = await createRateLimiter(db, { keyPrefix: 'maint', points: 5, duration: 60 });
    await limiter.consume('live-key');
    const limits = db.quote(db.table('rate_limits'));
    await db.execute(`INSERT INTO ${limits} (${db.quote('key')}, points, expire) VALUES (?, ?, ?)`, ['maint:stale', 3, clock.ms() - 1000]);
    await db.execute(`INSERT INTO ${limits} (${db.quote('key')}, points, expire) VALUES (?, ?, ?)`, ['maint:no-expiry', 1, null]);
    clock.advance(31);

    await tk.kernel.scheduler.runRecurring('svc_daily', clock.now());

    const names = (await db.select<{ name: string }>(`SELECT name FROM ${db.quote(db.table('transients'))} ORDER BY name`)).map((r) => r.name);
    expect(names).toEqual(['forever', 'fresh']);
    const keys = (await db.select<{ key: string }>(`SELECT ${db.quote('key')} AS ${db.quote('key')} FROM ${limits} WHERE ${db.quote('key')} LIKE ? ORDER BY 1`, ['maint%'])).map((r) => r.key);
    expect(keys).toEqual(['maint:live-key', 'maint:no-expiry']);
    expect(tk.logs.some((l) => l.msg === 'daily maintenance done' && l.expiredTransients === 3 && l.staleRateLimits === 1)).toBe(true);
  });
});
