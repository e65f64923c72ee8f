import { blockSpan, reportEndDay, spanLabel } from '../schedule/date-ranges';

const NOW = Date.UTC(2026, 0, 20, 12) / 1000;

describe('report and block periods', () => {
  it('ends on the fixed end date, or yesterday in the site timezone before the first mail', () => {
    expect(reportEndDay('2026-01-05', NOW, 'UTC')).toBe('2026-01-05');
    expect(reportEndDay('', NOW, 'UTC')).toBe('2026-01-19');
    expect(reportEndDay('2026-02-30', NOW, 'UTC')).toBe('2026-01-19');
    // 12:00 UTC is already the 21st in Kiritimati (UTC+14).
    expect(reportEndDay('', NOW, 'Pacific/Kiritimati')).toBe('2026-01-20');
  });

  it('gives a block its own range only when the override is on', () => {
    const block = { date_range: 'yesterday', date_range_enabled: false, fixed_end_date: '' };
    expect(blockSpan(block, 'last_week', '2026-01-19')).toEqual({ start: '2026-01-12', end: '2026-01-18' });
    expect(blockSpan({ ...block, date_range_enabled: true }, 'last_week', '2026-01-19')).toEqual({ start: '2026-01-19', end: '2026-01-19' });
    expect(blockSpan({ ...block, date_range_enabled: true, fixed_end_date: '2026-01-10' }, 'last_week', '2026-01-19')).toEqual({
      start: '2026-01-10',
      end: '2026-01-10',
    });
  });

  it('labels a span', () => {
    expect(spanLabel({ start: '2026-01-12', end: '2026-01-18' })).toBe('12 Jan 2026 – 18 Jan 2026');
    expect(spanLabel({ start: '2026-01-12', end: '2026-01-12' })).toBe('12 Jan 2026');
  });
});
