import { definePlugin, ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { heartbeat, pageview, rows, track } from './helpers';

const calls: Array<[string, ...unknown[]]> = [];
/** What `ctx.http.currentHeaders()` gave the third-party filter, before and after it waited. */
const seenHeaders: Array<[string | undefined, string | undefined]> = [];
const recorder = definePlugin({
  name: 'recorder',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_before_track_hit', async (hit, hitType, previous) => {
      const before = ctx.http.currentHeaders()?.['x-marker'] as string | undefined;
      await new Promise((resolve) => setTimeout(resolve, 5));
      seenHeaders.push([before, ctx.http.currentHeaders()?.['x-marker'] as string | undefined]);
      calls.push(['svc_before_track_hit', structuredClone(hit), hitType, structuredClone(previous)]);
      return hit.page_type === 'rewrite-me' ? { ...hit, page_type: 'rewritten' } : hit;
    });
    ctx.hooks.addAction('svc_before_create_statistic', (statistic) => void calls.push(['svc_before_create_statistic', structuredClone(statistic)]));
    ctx.hooks.addAction('svc_after_create_statistic', (id, statistic) => void calls.push(['svc_after_create_statistic', id, structuredClone(statistic)]));
    ctx.hooks.addAction('svc_track_external_link', (id, url) => void calls.push(['svc_track_external_link', id, url]));
    // A broken third-party filter must not stop tracking.
    ctx.hooks.addFilter('svc_before_track_hit', () => {
      throw new Error('broken filter');
    }, { priority: 20 });
  },
});

const STATISTIC_COLUMNS = ['fragment', 'page_id', 'page_type', 'page_url', 'parameters', 'session_id', 'time', 'time_on_page', 'uid'];

describe('tracking hooks (tracking.md §3.3, §6)', () => {
  const clock = new ManualClock('2026-07-01T08:00:00Z');
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [recorder], clock });
  });
  afterAll(() => tk.close());

  it('fires the hooks of a new page view in order, with their documented arguments', async () => {
    calls.length = 0;
    await track(tk, pageview('https://site.example/shop/?a=1#f', 'hooked', { search_term: 'boots', external_link_url: 'https://out.example/x', page_id: 3 }));
    expect(calls.map((c) => c[0])).toEqual(['svc_before_track_hit', 'svc_before_create_statistic', 'svc_after_create_statistic', 'svc_track_external_link']);
    const [, hit, hitType, previous] = calls[0]!;
    expect(hitType).toBe('create');
    expect(previous).toEqual({});
    expect(hit).toMatchObject({ url: 'https://site.example/shop/', path: '/shop/', host: 'site.example', parameters: 'a=1', fragment: 'f', uid: 'hooked', search_term: 'boots', external_link_url: 'https://out.example/x', page_id: 3, time: clock.unix() });
    expect((hit as { browser_id: number }).browser_id).toBeGreaterThan(0);
    const before = calls[1]![1] as Record<string, unknown>;
    expect(Object.keys(before).sort()).toEqual(STATISTIC_COLUMNS);
    expect(before).toMatchObject({ page_url: '/shop/', parameters: 'a=1', session_id: 0 });
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['hooked']);
    const [, id, after] = calls[2]! as [string, number, Record<string, unknown>];
    expect(id).toBe(stat!.ID);
    expect(after).toMatchObject({ ID: stat!.ID, session_id: stat!.session_id, search_term: 'boots', page_url: '/shop/' });
    expect(Object.keys(after).sort()).toEqual(['ID', ...STATISTIC_COLUMNS, 'search_term'].sort());
    expect(calls[3]).toEqual(['svc_track_external_link', stat!.ID, 'https://out.example/x']);
    expect(tk.logs.some((l) => l.hook === 'svc_before_track_hit' && l.plugin === 'recorder')).toBe(true);
  });

  it('passes the previous hit to the filter and fires only the external-link action on an update', async () => {
    calls.length = 0;
    clock.advance(10);
    await track(tk, heartbeat('https://site.example/shop/?a=1', 'hooked', 10));
    expect(calls.map((c) => c[0])).toEqual(['svc_before_track_hit', 'svc_track_external_link']);
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['hooked']);
    expect(calls[0]![2]).toBe('update');
    expect(calls[0]![3]).toMatchObject({ ID: stat!.ID, page_url: '/shop/', session_id: stat!.session_id });
    expect(calls[1]).toEqual(['svc_track_external_link', stat!.ID, '']);
    expect(stat!.time_on_page).toBe(10);
  });

  it('stores what the filter returns', async () => {
    await track(tk, pageview('https://site.example/x/', 'rewriter', { page_type: 'rewrite-me' }));
    expect((await rows(tk, 'statistics', 'uid = ?', ['rewriter']))[0]!.page_type).toBe('rewritten');
  });

  it("serves a third-party filter the request's headers through ctx.http.currentHeaders(), also after it waited, with hits in parallel", async () => {
    seenHeaders.length = 0;
    const markers = Array.from({ length: 6 }, (_, i) => `marker-${i}`);
    await Promise.all(markers.map((marker, i) => track(tk, pageview(`https://site.example/parallel-${i}/`, `parallel${i}`), { headers: { 'x-marker': marker } })));
    expect(seenHeaders.map(([before]) => before).sort()).toEqual(markers);
    for (const [before, after] of seenHeaders) expect(after).toBe(before);
  });

  it('fires nothing for a dropped hit', async () => {
    calls.length = 0;
    await track(tk, heartbeat('https://site.example/', 'nobody', 5));
    expect(calls.map((c) => c[0])).toEqual([]);
  });
});
