import type { ShareLink } from '../types';
import { fixedView, forceView, sharedView } from '../services/view-state';

const TOKEN = 'a'.repeat(32);
const link = (view: string, state: Partial<ShareLink['initial_state']> = {}): ShareLink => ({
  token: TOKEN,
  url: `https://stats.example.com/svc-dashboard/statistics/?svc_share_token=${TOKEN}${view ? `&${view}` : ''}`,
  expires: 0,
  created: 0,
  report_id: 0,
  permissions: { can_change_date: false, can_filter: false },
  shared_tabs: ['statistics'],
  initial_state: { date_range: { start: '', end: '' }, filters: {}, ...state },
});
const locked = { can_change_date: false, can_filter: false };
const open = { can_change_date: true, can_filter: true };
const params = (text: string) => new URLSearchParams(text);

describe('fixedView', () => {
  it('prefers the initial state over the view the link was made from', () => {
    const l = link('range=last_7_days&filters=%7B%22device%22%3A%22mobile%22%7D', { date_range: { start: '2026-01-01', end: '2026-01-05' }, filters: { page_url: '/a' } });
    expect(Object.fromEntries(fixedView(l))).toEqual({ range: 'custom', date_start: '2026-01-01', date_end: '2026-01-05', filters: '{"page_url":"/a"}' });
  });

  it('falls back to the view, and to nothing', () => {
    expect(Object.fromEntries(fixedView(link('range=last_month&currency=EUR')))).toEqual({ range: 'last_month' });
    expect(fixedView(link('')).toString()).toBe('');
  });
});

describe('sharedView', () => {
  it('replaces what a locked link fixes, and drops what it does not', () => {
    const l = link('range=last_7_days');
    expect(sharedView(params(`svc_share_token=${TOKEN}&range=today&filters=x&currency=EUR`), l, locked).toString()).toBe(
      `svc_share_token=${TOKEN}&currency=EUR&range=last_7_days`,
    );
  });

  it('keeps what an open link lets the viewer choose, and fills in only what is missing', () => {
    const l = link('', { date_range: { start: '2026-01-01', end: '2026-01-05' }, filters: { page_url: '/a' } });
    const asked = params(`svc_share_token=${TOKEN}&range=today&filters=%7B%7D`);
    expect(sharedView(asked, l, open).toString()).toBe(asked.toString());
    expect(Object.fromEntries(sharedView(params(`svc_share_token=${TOKEN}`), l, open))).toEqual({
      svc_share_token: TOKEN,
      range: 'custom',
      date_start: '2026-01-01',
      date_end: '2026-01-05',
      filters: '{"page_url":"/a"}',
    });
  });

  it('is stable: a second pass changes nothing', () => {
    const l = link('range=custom&date_start=2026-01-02&date_end=2026-01-03');
    const once = sharedView(params(`svc_share_token=${TOKEN}&filters=x&range=today`), l, locked);
    expect(sharedView(once, l, locked).toString()).toBe(once.toString());
  });
});

describe('forceView', () => {
  it('forces custom days, presets counted from today, and the default', () => {
    const query: Record<string, unknown> = { date_start: '2020-01-01', date_end: '2030-01-01', filters: 'page_url:/x' };
    forceView(query, link('range=custom&date_start=2026-01-02&date_end=2026-01-03'), locked, '2026-01-20');
    expect(query).toEqual({ date_start: '2026-01-02', date_end: '2026-01-03' });
    const preset: Record<string, unknown> = { date_start: '2020-01-01' };
    forceView(preset, link('range=yesterday&filters=%7B%22device%22%3A%22mobile%22%7D'), locked, '2026-01-20');
    expect(preset).toEqual({ date_start: '2026-01-19', date_end: '2026-01-19', filters: '{"device":"mobile"}' });
    const none: Record<string, unknown> = { date_start: '2020-01-01', date_end: '2020-02-01' };
    forceView(none, link('range=custom&date_start=nonsense'), locked, '2026-01-20');
    expect(none).toEqual({});
  });

  it('leaves alone what the link lets the viewer change', () => {
    const query: Record<string, unknown> = { date_start: '2020-01-01', date_end: '2020-02-01', filters: 'page_url:/x' };
    forceView(query, link('range=yesterday', { filters: { page_url: '/a' } }), open, '2026-01-20');
    expect(query).toEqual({ date_start: '2020-01-01', date_end: '2020-02-01', filters: 'page_url:/x' });
  });
});
