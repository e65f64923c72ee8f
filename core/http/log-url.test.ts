import { logUrl } from './log-url';

describe('logUrl', () => {
  it('hides share tokens and nonces, keeps the rest', () => {
    expect(logUrl('/svc-dashboard/statistics/?svc_share_token=0123456789abcdef0123456789abcdef&x=1')).toBe(
      '/svc-dashboard/statistics/?svc_share_token=***&x=1',
    );
    expect(logUrl('/wp-json/svc/v1/reports?svc_nonce=abc')).toBe('/wp-json/svc/v1/reports?svc_nonce=***');
    expect(logUrl('/a?b=c')).toBe('/a?b=c');
    expect(logUrl('/plain')).toBe('/plain');
  });
});
