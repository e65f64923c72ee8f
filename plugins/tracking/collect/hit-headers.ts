import type { IncomingHttpHeaders } from 'node:http';

/** The hooks of location enrichment (tracking.md §3.3 step 6, §8.1), whose handlers may read the request's headers. */
export const LOCATION_HOOKS = [
  'svc_before_track_hit',
  'svc_geo_ip_enabled',
  'svc_country_code_for_ip',
  'svc_localhost_location_data',
  'svc_geoip_handler',
  'svc_cdn_country_headers',
  'svc_location_data',
] as const;

/**
 * The request headers of each hit the pipeline hands to `svc_before_track_hit`,
 * for the plugin's own location tap. The hot path serves a hit inside the
 * kernel's request context (`ctx.http.currentHeaders()`) only while another
 * plugin taps a location hook, so the tap looks here first.
 */
export class HitHeaders {
  private readonly byHit = new WeakMap<object, IncomingHttpHeaders>();

  set(hit: object, headers: IncomingHttpHeaders): void {
    this.byHit.set(hit, headers);
  }

  get(hit: object): IncomingHttpHeaders | undefined {
    return this.byHit.get(hit);
  }
}
