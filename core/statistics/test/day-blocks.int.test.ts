import { ManualClock } from '../../clock';
import { createLogger } from '../../logger';
import { BlockStore } from '../blocks/block-store';
import { decodeBlock, encodeBlock } from '../blocks/block-codec';
import { wholeDays } from '../dates';
import type { StatsQuery } from '../types';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { NOW, TZ, at, insertPageview, insertSession, loadTraffic } from './traffic';

const RANGE = { start: at('2026-01-09T00:00'), end: at('2026-01-21T00:00') };
/** A question only raw hits or day blocks answer: visitors per page under an operator filter. */
const QUERY: StatsQuery = {
  id: 'test_blocks',
  siteId: 1,
  range: RANGE,
  metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'first_time_visitors', 'conversion_rate'],
  groupBy: ['page_url'],
  filters: [{ dimension: 'device', value: 'tablet', operator: 'is_not', values: ['tablet'] }],
  status: '200',
};

describe('day blocks', () => {
  let tk: TestKernel;
  const clock = new ManualClock(NOW);
  const stats = () => tk.kernel.statistics;
  const table = (name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));
  /** A block store as a freshly started node has it: nothing in memory. */
  const restarted = () => new BlockStore(tk.kernel.db, stats().catalog, stats().runner, stats().state, TZ, createLogger({ level: 'silent' }), 64 * 1024 * 1024);

  beforeAll(async () => {
    tk = await createTestKernel({ clock, env: { SVC_TIMEZONE: TZ } });
    await loadTraffic(tk.kernel.db);
    await stats().folder.foldPending();
  });
  afterAll(() => tk.close());

  it('are stored with each fold and read back the same', async () => {
    const [{ n }] = (await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table('summary_blocks')}`)) as [{ n: number }];
    const [{ folded }] = (await tk.kernel.db.select<{ folded: number }>(`SELECT COUNT(*) AS folded FROM ${table('summary_state')}`)) as [{ folded: number }];
    expect(Number(n)).toBe(Number(folded));
    const days = wholeDays(RANGE, TZ);
    for (const block of await restarted().blocks(1, days)) {
      const again = decodeBlock(1, block.day, encodeBlock(block))!;
      expect({ ...again, columns: [...again.columns] }).toEqual({ ...block, columns: [...block.columns] });
    }
  });

  it('are read once for a burst of questions, however the days fall into reads', async () => {
    const days = wholeDays(RANGE, TZ);
    const state = table('summary_state');
    // A dirty day in the middle splits the folded days into two reads.
    await tk.kernel.db.execute(`UPDATE ${state} SET dirty = 1 WHERE day = ?`, [at('2026-01-14T00:00')]);
    try {
      const fresh = restarted();
      const answers = await Promise.all(Array.from({ length: 8 }, () => fresh.blocks(1, days)));
      expect(answers[0]!.length).toBeGreaterThan(5);
      for (const answer of answers) {
        expect(answer.map((b) => b.day)).toEqual(answers[0]!.map((b) => b.day));
        answer.forEach((block, i) => expect(block).toBe(answers[0]![i]));
      }
    } finally {
      await tk.kernel.db.execute(`UPDATE ${state} SET dirty = 0 WHERE day = ?`, [at('2026-01-14T00:00')]);
    }
  });

  it('number visitors across days once per site, and begin anew beyond the memory the blocks may take', async () => {
    const store = restarted();
    const blocks = await store.blocks(1, wholeDays(RANGE, TZ));
    const index = store.visitorIndex(1);
    for (const block of blocks) index.numbers(block);
    expect(index.size).toBe(new Set(blocks.flatMap((b) => b.visitorKeys)).size);
    expect(index.size).toBeLessThan(blocks.reduce((n, b) => n + b.visitorKeys.length, 0));
    expect(store.visitorIndex(1)).toBe(index);
    // Room for two visitors: the index fills past it and the next scan begins a new one.
    const small = new BlockStore(tk.kernel.db, stats().catalog, stats().runner, stats().state, TZ, createLogger({ level: 'silent' }), 160);
    const first = small.visitorIndex(1);
    for (const block of blocks) first.numbers(block);
    expect(small.visitorIndex(1)).not.toBe(first);
    expect(small.visitorIndex(1).size).toBe(0);
  });

  it('answer a burst of questions and walks alike, all sharing the site visitor numbering', async () => {
    const raw = await stats().engine.run({ ...QUERY, mode: 'raw' });
    const walk = async () => {
      const visitors = new Set<number>();
      let pageviews = 0;
      await stats().walker.walk('test_walk', { siteId: 1, range: RANGE, status: '200', filters: QUERY.filters }, (pv) => {
        visitors.add(pv.visitor);
        pageviews++;
      });
      return { visitors: visitors.size, pageviews };
    };
    const [total] = await stats().engine.run({ ...QUERY, id: 'test_total', groupBy: [], metrics: ['visitors', 'pageviews'], mode: 'raw' });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? walk() : stats().engine.run(QUERY))));
    answers.forEach((answer, i) => expect(answer).toEqual(i % 2 ? { visitors: total!.visitors, pageviews: total!.pageviews } : raw));
  });

  it('answer as raw hits do', async () => {
    expect(await stats().engine.run(QUERY)).toEqual(await stats().engine.run({ ...QUERY, mode: 'raw' }));
    const folded = (await tk.kernel.db.select<{ day: number }>(`SELECT day FROM ${table('summary_state')} WHERE day >= ? AND day < ? ORDER BY day`, [RANGE.start, RANGE.end])).map((r) => Number(r.day));
    expect(folded.length).toBeGreaterThan(5);
    expect(stats().blocks.cached(1)).toEqual(folded);
  });

  it('are read from their table after a start, without raw hits', async () => {
    const expected = await stats().engine.run(QUERY);
    const day = { start: at('2026-01-13T00:00'), end: at('2026-01-14T00:00') };
    const saved = await tk.kernel.db.select(`SELECT * FROM ${table('statistics')} WHERE time >= ? AND time < ?`, [day.start, day.end]);
    expect(saved.length).toBeGreaterThan(0);
    await tk.kernel.db.execute(`DELETE FROM ${table('statistics')} WHERE time >= ? AND time < ?`, [day.start, day.end]);
    try {
      const fresh = restarted();
      const blocks = await fresh.blocks(1, wholeDays(RANGE, TZ));
      expect(blocks.find((b) => b.day === day.start)!.rows).toBe(saved.length);
    } finally {
      for (const row of saved) {
        const cols = Object.keys(row);
        await tk.kernel.db.execute(`INSERT INTO ${table('statistics')} (${cols.map(tk.kernel.db.quote).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
      }
    }
    expect(await stats().engine.run(QUERY)).toEqual(expected);
  });

  it('read a stored block that cannot be decoded from raw hits again, and store it anew', async () => {
    const day = at('2026-01-13T00:00');
    const [{ n }] = (await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table('statistics')} WHERE time >= ? AND time < ?`, [day, day + 86_400])) as [{ n: number }];
    await tk.kernel.db.execute(`UPDATE ${table('summary_blocks')} SET data = ? WHERE day = ?`, [Buffer.from('not a block'), day]);
    const [block] = await restarted().blocks(1, [day]);
    expect(block!.rows).toBe(Number(n));
    const [stored] = await tk.kernel.db.select<{ data: Buffer }>(`SELECT data FROM ${table('summary_blocks')} WHERE day = ?`, [day]);
    expect(decodeBlock(1, day, Buffer.from(stored!.data))!.rows).toBe(Number(n));
  });

  it('read a block an earlier release stored in its format from raw hits again, without a warning, and store it in the current one; refuse a later format', async () => {
    const day = at('2026-01-13T00:00');
    const [current] = await restarted().blocks(1, [day]);
    const data = encodeBlock(current!);
    const headerLength = data.readUInt32LE(0);
    const header = JSON.parse(data.subarray(4, 4 + headerLength).toString()) as { version: number };
    const withVersion = (version: number) => {
      const json = Buffer.from(JSON.stringify({ ...header, version }));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(json.length);
      return Buffer.concat([length, json, data.subarray(4 + headerLength)]);
    };
    const stale = withVersion(header.version - 1);
    expect(decodeBlock(1, day, stale)).toBeNull();
    expect(() => decodeBlock(1, day, withVersion(header.version + 1))).toThrow(`day block format ${header.version + 1} is not known`);
    await tk.kernel.db.execute(`UPDATE ${table('summary_blocks')} SET data = ? WHERE day = ?`, [stale, day]);
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(line) } });
    const [block] = await new BlockStore(tk.kernel.db, stats().catalog, stats().runner, stats().state, TZ, logger, 64 * 1024 * 1024).blocks(1, [day]);
    expect({ ...block, columns: [...block!.columns] }).toEqual({ ...current, columns: [...current!.columns] });
    expect(lines).toEqual([]);
    const [stored] = await tk.kernel.db.select<{ data: Buffer }>(`SELECT data FROM ${table('summary_blocks')} WHERE day = ?`, [day]);
    expect(Buffer.from(stored!.data).equals(data)).toBe(true);
  });

  it('stay off with no memory for them: every question reads raw hits', async () => {
    const off = new BlockStore(tk.kernel.db, stats().catalog, stats().runner, stats().state, TZ, createLogger({ level: 'silent' }), 0);
    expect(off.enabled).toBe(false);
    const { block, data } = await off.readForFold(1, at('2026-01-13T00:00'), 0);
    expect(block.rows).toBeGreaterThan(0);
    expect(data).toBeNull();
    expect(off.cached(1)).toEqual([]);
  });

  it('follow a late hit: raw hits answer for the dirty day, the next fold stores a new block', async () => {
    const db = tk.kernel.db;
    const [session] = await db.select<{ ID: number }>(`SELECT ID FROM ${table('sessions')} WHERE uid = 'C'`);
    const time = at('2026-01-14T16:00');
    const id = await insertPageview(db, Number(session!.ID), 'C', time, { url: '/late', top: 12 });
    await tk.kernel.hooks.doAction('svc_after_create_statistic', id, { page_url: '/late', parameters: '', fragment: '', page_id: 0, page_type: 'page', time, uid: 'C', time_on_page: 12, session_id: Number(session!.ID) });
    const late = (rows: Array<Record<string, unknown>>) => rows.find((r) => r.page_url === '/late');
    expect(late(await stats().engine.run(QUERY))).toMatchObject({ pageviews: 1, visitors: 1 });
    const [before] = await db.select<{ pageviews: number }>(`SELECT pageviews FROM ${table('summary_blocks')} WHERE day = ?`, [at('2026-01-14T00:00')]);
    expect(await stats().folder.foldPending()).toEqual([at('2026-01-14T00:00')]);
    const [after] = await db.select<{ pageviews: number }>(`SELECT pageviews FROM ${table('summary_blocks')} WHERE day = ?`, [at('2026-01-14T00:00')]);
    expect(Number(after!.pageviews)).toBe(Number(before!.pageviews) + 1);
    expect(late(await stats().engine.run(QUERY))).toMatchObject({ pageviews: 1, visitors: 1 });
    const [stored] = await restarted().blocks(1, [at('2026-01-14T00:00')]);
    expect(stored!.rows).toBe(Number(after!.pageviews));
    expect(await stats().engine.run(QUERY)).toEqual(await stats().engine.run({ ...QUERY, mode: 'raw' }));
  });

  it('fold values the database takes as one into one summary row: letter case on MariaDB, the first 255 characters on both', async () => {
    const db = tk.kernel.db;
    const day = at('2026-01-03T00:00');
    const long = '/x'.repeat(150);
    const pages = { a: ['/Blog', '/blog'], b: ['/blog'] };
    for (const [end, urls] of Object.entries(pages)) {
      const session = await insertSession(db, `case-${end}`, day + 36000);
      await db.execute(`UPDATE ${table('sessions')} SET first_visited_url = ? WHERE ID = ?`, [long + end, session]);
      for (const [i, url] of urls.entries()) await insertPageview(db, session, `case-${end}`, day + 36000 + i, { url, top: 1 });
    }
    await stats().folder.refold(1, day, day + 3600);
    const summary = async (dimension: string) =>
      Object.fromEntries(
        (await db.select<{ value: string; pageviews: number }>(`SELECT value, pageviews FROM ${table('summary_dims')} WHERE site_id = 1 AND dimension = ? AND day = ?`, [dimension, day])).map((r) => [
          r.value,
          Number(r.pageviews),
        ]),
      );
    expect(await summary('entry_page')).toEqual({ [long.slice(0, 255)]: 3 });
    const byPage = await summary('page_url');
    if (db.dialect === 'mysql') expect(Object.values(byPage)).toEqual([3]);
    else expect(byPage).toEqual({ '/Blog': 1, '/blog': 2 });
    const [total] = await db.select<{ n: number }>(`SELECT SUM(pageviews) AS n FROM ${table('summary_days')} WHERE site_id = 1 AND day = ?`, [day]);
    expect(Number(total!.n)).toBe(3);
  });
  it('walk up to the first raw read the database refuses and throw it, leaving no later refusal unhandled', async () => {
    const state = table('summary_state');
    const dirty = at('2026-01-14T00:00');
    // Folded days in memory, then two raw reads: the dirty day and the half day at the end.
    const src = { siteId: 1, range: { start: at('2026-01-10T00:00'), end: RANGE.end - 43200 }, status: '200' as const, filters: [] };
    await stats().walker.walk('test_walk', src, () => undefined);
    await tk.kernel.db.execute(`UPDATE ${state} SET dirty = 1 WHERE day = ?`, [dirty]);
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    await tk.kernel.db.execute(`ALTER TABLE ${table('statistics')} RENAME TO ${table('statistics_away')}`);
    try {
      const walked = new Set<number>();
      await expect(stats().walker.walk('test_walk', src, (pv) => walked.add(pv.time))).rejects.toThrow();
      expect(walked.size).toBeGreaterThan(0);
      expect(Math.max(...walked)).toBeLessThan(dirty);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
      await tk.kernel.db.execute(`ALTER TABLE ${table('statistics_away')} RENAME TO ${table('statistics')}`);
      await tk.kernel.db.execute(`UPDATE ${state} SET dirty = 0 WHERE day = ?`, [dirty]);
    }
  });
});
