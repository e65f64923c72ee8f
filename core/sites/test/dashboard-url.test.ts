import { dashboardUrl } from '../../admin/dashboard-url';

describe('dashboard links of a site', () => {
  const period = { dateStart: '2026-01-01', dateEnd: '2026-01-31' };

  it('name a site other than the default one', () => {
    expect(dashboardUrl('https://stats.example', '/svc-admin/statistics', period, { site: 3 })).toBe(
      'https://stats.example/svc-admin/statistics?range=custom&date_start=2026-01-01&date_end=2026-01-31&site=3',
    );
  });

  it('stay as they were for the default site', () => {
    const plain = dashboardUrl('https://stats.example', '/svc-admin/statistics', period);
    expect(dashboardUrl('https://stats.example', '/svc-admin/statistics', period, { site: 1 })).toBe(plain);
    expect(plain).not.toContain('site=');
  });
});
