import { blockPeriod, reportPeriod, reportSpan, spanLabel } from '../services/period';

const NOW = Date.UTC(2026, 0, 20, 12) / 1000;

describe('report periods', () => {
  it.each([
    ['today', { start: '2026-01-20', end: '2026-01-20' }],
    ['yesterday', { start: '2026-01-19', end: '2026-01-19' }],
    ['last_7_days', { start: '2026-01-13', end: '2026-01-19' }],
    ['last_30_days', { start: '2025-12-21', end: '2026-01-19' }],
    ['last_week', { start: '2026-01-12', end: '2026-01-18' }],
    ['this_week', { start: '2026-01-19', end: '2026-01-20' }],
    ['this_month', { start: '2026-01-01', end: '2026-01-20' }],
    ['last_month', { start: '2025-12-01', end: '2025-12-31' }],
    ['last_year', { start: '2025-01-01', end: '2025-12-31' }],
    ['custom:2025-03-01:2025-03-31', { start: '2025-03-01', end: '2025-03-31' }],
    ['custom:2025-03-31:2025-03-01', { start: '2026-01-12', end: '2026-01-18' }],
    ['unknown', { start: '2026-01-12', end: '2026-01-18' }],
  ])('reads %s counting back from the end day', (range, span) => {
    expect(reportSpan(range, '2026-01-19')).toEqual(span);
  });

  it('ends on the fixed end date, or yesterday in the site timezone before the first mail', () => {
    expect(reportPeriod({ reportDateRange: 'yesterday', fixedEndDate: '2026-01-05' }, NOW, 'UTC')).toEqual({ start: '2026-01-05', end: '2026-01-05' });
    expect(reportPeriod({ reportDateRange: 'yesterday', fixedEndDate: '' }, NOW, 'UTC')).toEqual({ start: '2026-01-19', end: '2026-01-19' });
    // 12:00 UTC is already the 21st in Kiritimati (UTC+14).
    expect(reportPeriod({ reportDateRange: 'yesterday', fixedEndDate: '' }, NOW, 'Pacific/Kiritimati')).toEqual({ start: '2026-01-20', end: '2026-01-20' });
  });

  it('gives a block its own range only when the override is on', () => {
    const report = { reportDateRange: 'last_week', fixedEndDate: '2026-01-19' };
    const block = { id: 'pages', filters: [], content: '', date_range: 'yesterday', date_range_enabled: false, fixed_end_date: '', comment_title: '', comment_text: '' };
    expect(blockPeriod(block, report, NOW, 'UTC')).toEqual({ start: '2026-01-12', end: '2026-01-18' });
    expect(blockPeriod({ ...block, date_range_enabled: true }, report, NOW, 'UTC')).toEqual({ start: '2026-01-19', end: '2026-01-19' });
    expect(blockPeriod({ ...block, date_range_enabled: true, fixed_end_date: '2026-01-10' }, report, NOW, 'UTC')).toEqual({ start: '2026-01-10', end: '2026-01-10' });
  });

  it('labels a span', () => {
    expect(spanLabel({ start: '2026-01-12', end: '2026-01-18' })).toBe('12 Jan 2026 – 18 Jan 2026');
    expect(spanLabel({ start: '2026-01-12', end: '2026-01-12' })).toBe('12 Jan 2026');
  });
});
