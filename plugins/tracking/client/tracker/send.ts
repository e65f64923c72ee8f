import type { SvcGlobal } from './types';

/**
 * In debug mode, reports a failed request to the tracking error endpoint once
 * per browser session; `status` is the HTTP status or the network error.
 */
function report(svc: SvcGlobal, endpoint: string, status: unknown): void {
  try {
    if (!svc.options.debug || sessionStorage.svc_error) return;
    sessionStorage.svc_error = 1;
    navigator.sendBeacon(svc.tracking.ajaxUrl, new URLSearchParams({ action: 'svc_tracking_error', status: `${status}`, url: location.href, endpoint }));
  } catch {
    // storage blocked: no report
  }
}

/**
 * Sends one hit: with `navigator.sendBeacon` to the beacon endpoint when the
 * server's transport status says beacon, else to `{api_base}/track` as a
 * JSON-encoded string (double-encoded) with keepalive, so the request outlives
 * the page. Resolves when the request is done; never rejects.
 */
export async function send(svc: SvcGlobal, payload: object): Promise<void> {
  const body = JSON.stringify(payload);
  const beacon = svc.options.beacon_enabled;
  const url = beacon ? svc.tracking.beacon_url : `${window.svc_rest_url}/track`;
  try {
    if (beacon) {
      if (!navigator.sendBeacon(url, body)) throw 0;
    } else {
      const res = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' }, keepalive: true, credentials: 'include' });
      if (!res.ok) throw res.status;
    }
  } catch (status) {
    report(svc, url, status);
  }
}
