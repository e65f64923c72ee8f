import { isSvcError } from '../../../core';
import { parseViewUrl, shareUrl } from '../services/share-urls';

const BASE = 'https://stats.example.com/sub';

describe('parseViewUrl', () => {
  it('takes the tab from the last path segment of absolute and relative addresses', () => {
    expect(parseViewUrl('https://other.example/svc-admin/sources?range=today', BASE)).toMatchObject({ tab: 'sources' });
    expect(parseViewUrl('/sub/svc-dashboard/sales/', BASE).tab).toBe('sales');
    expect(parseViewUrl('statistics', BASE).tab).toBe('statistics');
    expect(parseViewUrl('', BASE)).toEqual({ tab: null, params: new URLSearchParams() });
  });

  it('gives no tab outside the whitelist', () => {
    for (const url of ['/svc-admin/dashboard', '/svc-admin/subscriptions', '/svc-admin/story', '/svc-admin/', '/svc-admin/settings']) {
      expect([url, parseViewUrl(url, BASE).tab]).toEqual([url, null]);
    }
  });

  it('moves a legacy hash route into the path and merges its parameters, the hash winning', () => {
    const view = parseViewUrl('/svc-admin/?range=today&page=svc#/sources/?range=last_month&filters=x', BASE);
    expect(view.tab).toBe('sources');
    expect(view.params.toString()).toBe('range=last_month&page=svc&filters=x');
    expect(parseViewUrl('/svc-admin/statistics#/dashboard', BASE).tab).toBeNull();
  });

  it('drops credentials from the parameters', () => {
    const view = parseViewUrl(`/svc-admin/statistics?svc_nonce=1&_svc_nonce=2&svc_share_token=${'a'.repeat(32)}&range=today#/sources?svc_share_token=x`, BASE);
    expect(view.params.toString()).toBe('range=today');
  });

  it('refuses what is not an address, and overlong ones', () => {
    for (const bad of ['http://[::1', 'x'.repeat(2049)]) {
      try {
        parseViewUrl(bad, BASE);
        throw new Error('accepted');
      } catch (err) {
        expect(isSvcError(err) && err.status === 400 && err.data?.field === 'view_url').toBe(true);
      }
    }
  });
});

describe('shareUrl', () => {
  it('puts the token first, then the view, under the given prefix', () => {
    expect(shareUrl(BASE, 'statistics', 'a'.repeat(32), 'range=today&svc_share_token=b')).toBe(
      `${BASE}/svc-dashboard/statistics/?svc_share_token=${'a'.repeat(32)}&range=today`,
    );
    expect(shareUrl('', 'story', 'c'.repeat(32))).toBe(`/svc-dashboard/story/?svc_share_token=${'c'.repeat(32)}`);
  });
});
