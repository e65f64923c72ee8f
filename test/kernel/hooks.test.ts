import { type SvcMenuItem } from '../../hooks';
import { HookRegistry, Priority } from '../../core/hooks/registry';
import { createMemoryLogger } from '../../core/logger';

const item = (id: string): SvcMenuItem => ({ id, title: id, shareable: false, path: `/svc-admin/${id}` });
const ids = (menu: SvcMenuItem[]) => menu.map((m) => m.id);

describe('HookRegistry', () => {
  let hooks: HookRegistry;
  let logs: Array<Record<string, unknown>>;
  beforeEach(() => {
    const memory = createMemoryLogger('debug');
    hooks = new HookRegistry(memory.logger);
    logs = memory.entries;
  });

  it('passes the value through untouched when nobody tapped a filter', async () => {
    expect(await hooks.applyFilters('svc_cookie_retention_days', 30)).toBe(30);
    expect(hooks.hasFilter('svc_cookie_retention_days')).toBe(false);
  });

  it('runs filters by priority, lower first, registration order within a priority', async () => {
    hooks.addFilter('svc_menu', (m) => [...m, item('default-1')]);
    hooks.addFilter('svc_menu', (m) => [...m, item('last')], { priority: Priority.LAST });
    hooks.addFilter('svc_menu', (m) => [...m, item('late')], { priority: Priority.LATE });
    hooks.addFilter('svc_menu', (m) => [...m, item('early')], { priority: Priority.EARLY });
    hooks.addFilter('svc_menu', (m) => [...m, item('default-2')], { priority: Priority.DEFAULT });
    hooks.addFilter('svc_menu', async (m) => [...m, item('first')], { priority: Priority.FIRST });
    hooks.addFilter('svc_menu', (m) => [...m, item('eleven')], { priority: 11 });
    expect(ids(await hooks.applyFilters('svc_menu', []))).toEqual(['first', 'early', 'default-1', 'default-2', 'eleven', 'late', 'last']);
    expect(Priority).toEqual({ FIRST: Number.MIN_SAFE_INTEGER, EARLY: 5, DEFAULT: 10, LATE: 20, LAST: Number.MAX_SAFE_INTEGER });
  });

  it('hands every documented argument to a filter, not only the value', async () => {
    const seen: unknown[] = [];
    hooks.addFilter('svc_mail_report_results', (rows, qd, start, end) => {
      seen.push(qd.id, start, end);
      return rows;
    });
    const qd = { id: 'report_block_pages', date_start: 1, date_end: 2, metrics: [], group_by: [], filters: {}, limit: 5 };
    await hooks.applyFilters('svc_mail_report_results', [], qd, 100, 200);
    expect(seen).toEqual(['report_block_pages', 100, 200]);
  });

  it('skips a throwing filter, logs it with its plugin and hook, and passes the value on unchanged', async () => {
    const plugin = hooks.forPlugin('broken-plugin');
    hooks.addFilter('svc_cookie_retention_days', (d) => d + 1, { priority: Priority.EARLY });
    plugin.addFilter('svc_cookie_retention_days', () => {
      throw new Error('boom');
    });
    plugin.addFilter('svc_cookie_retention_days', async () => Promise.reject(new Error('async boom')), { priority: 11 });
    hooks.addFilter('svc_cookie_retention_days', (d) => d * 2, { priority: Priority.LATE });
    expect(await hooks.applyFilters('svc_cookie_retention_days', 30)).toBe(62);
    const errors = logs.filter((l) => l.level === 50);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ plugin: 'broken-plugin', hook: 'svc_cookie_retention_days', err: { message: 'boom' } });
    expect(String(errors[0]!.msg)).toContain('broken-plugin');
    expect(errors[1]).toMatchObject({ plugin: 'broken-plugin', err: { message: 'async boom' } });
  });

  it('swallows a throwing action, logs it and still runs the other handlers', async () => {
    const calls: string[] = [];
    hooks.forPlugin('bad').addAction('svc_track_external_link', () => {
      throw new Error('nope');
    });
    hooks.forPlugin('good').addAction('svc_track_external_link', (id, url) => {
      calls.push(`${id}:${url}`);
    });
    await expect(hooks.doAction('svc_track_external_link', 7, 'https://example.org/')).resolves.toBeUndefined();
    expect(calls).toEqual(['7:https://example.org/']);
    expect(logs.find((l) => l.level === 50)).toMatchObject({ plugin: 'bad', hook: 'svc_track_external_link' });
  });

  it('orders actions by priority too', async () => {
    const calls: number[] = [];
    hooks.addAction('svc_daily', () => void calls.push(20), { priority: 20 });
    hooks.addAction('svc_daily', () => void calls.push(1), { priority: 1 });
    hooks.addAction('svc_daily', () => void calls.push(10));
    await hooks.doAction('svc_daily');
    expect(calls).toEqual([1, 10, 20]);
  });

  it('settled() waits for queued fire-and-forget actions, including ones they queue', async () => {
    const done: string[] = [];
    hooks.addAction('svc_create_report_from_onboarding', async (email) => {
      await new Promise((r) => setTimeout(r, 30));
      done.push(email);
      if (email === 'a@example.com') hooks.queueAction('svc_create_report_from_onboarding', 'b@example.com');
    });
    hooks.queueAction('svc_create_report_from_onboarding', 'a@example.com');
    expect(done).toEqual([]);
    await hooks.settled();
    expect(done).toEqual(['a@example.com', 'b@example.com']);
  });

  it('defers a plugin view’s taps until they are committed', async () => {
    const pending: Array<() => void> = [];
    const view = hooks.forPlugin('staged', (apply) => pending.push(apply));
    view.addFilter('svc_mail_report_limit', () => 99);
    expect(await hooks.applyFilters('svc_mail_report_limit', 5)).toBe(5);
    pending.forEach((apply) => apply());
    expect(await hooks.applyFilters('svc_mail_report_limit', 5)).toBe(99);
  });

  it('refuses undeclared hooks at run time and reports action argument names', async () => {
    const untyped = hooks.applyFilters.bind(hooks) as (name: string, value: unknown) => Promise<unknown>;
    await expect(untyped('not_a_hook', 1)).rejects.toThrow('Unknown hook not_a_hook');
    expect(hooks.actionArgs('svc_send_email_batch')).toEqual(['report_id', 'queue_id', 'batch_id']);
    expect(hooks.actionArgs('svc_nothing')).toBeUndefined();
  });

  it('answers at once when every handler answers at once, and with a promise once one waits', async () => {
    expect(hooks.applyFiltersSoon('svc_cookie_retention_days', 30)).toBe(30);
    expect(hooks.doActionSoon('svc_daily')).toBeUndefined();
    hooks.addFilter('svc_cookie_retention_days', (d) => d + 1);
    expect(hooks.applyFiltersSoon('svc_cookie_retention_days', 30)).toBe(31);
    hooks.addFilter('svc_cookie_retention_days', async (d) => d * 2);
    hooks.addFilter('svc_cookie_retention_days', (d) => d + 1);
    const later = hooks.applyFiltersSoon('svc_cookie_retention_days', 30);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(63);
    expect(await hooks.applyFilters('svc_cookie_retention_days', 30)).toBe(63);
  });

  it('keeps a filter value when a handler answers undefined, and isolates a handler that throws at once', async () => {
    const plugin = hooks.forPlugin('broken-plugin');
    hooks.addFilter('svc_cookie_retention_days', () => undefined as unknown as number);
    plugin.addFilter('svc_cookie_retention_days', () => {
      throw new Error('sync boom');
    });
    hooks.addFilter('svc_cookie_retention_days', (d) => d + 5, { priority: Priority.LATE });
    expect(hooks.applyFiltersSoon('svc_cookie_retention_days', 30)).toBe(35);
    expect(logs.filter((l) => l.level === 50)).toHaveLength(1);
  });

  it('tells whether another plugin taps a hook', () => {
    const tracking = hooks.forPlugin('tracking');
    tracking.addFilter('svc_before_track_hit', (hit) => hit);
    expect(tracking.tappedByOthers('svc_before_track_hit')).toBe(false);
    hooks.forPlugin('geo-extra').addFilter('svc_before_track_hit', (hit) => hit);
    expect(tracking.tappedByOthers('svc_before_track_hit')).toBe(true);
    expect(tracking.tappedByOthers('svc_daily')).toBe(false);
  });
});
