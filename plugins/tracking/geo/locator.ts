import type { IncomingHttpHeaders } from 'node:http';
import { type Hooks, runSoon, type Soon, type SoonSteps } from '../../../core';
import type { SvcLocation } from '../../../hooks';
import { isPublicIp } from '../collect/ip';
import { continentOf, countryCode } from './countries';
import { CITY_READER, type GeoReader, READERS, countryReader } from './readers';

/** Server variables of common edge networks that carry the visitor's country. */
export const DEFAULT_CDN_COUNTRY_HEADERS = [
  'HTTP_CF_IPCOUNTRY',
  'HTTP_CLOUDFRONT_VIEWER_COUNTRY',
  'HTTP_X_VERCEL_IP_COUNTRY',
  'HTTP_FASTLY_CLIENT_COUNTRY',
  'HTTP_X_APPENGINE_COUNTRY',
  'HTTP_X_COUNTRY_CODE',
];

const headerNames = new Map<string, string>();

/** `HTTP_CF_IPCOUNTRY` → `cf-ipcountry` (remembered: the list is the same on every hit). */
function headerName(serverVariable: string): string {
  let name = headerNames.get(serverVariable);
  if (name === undefined) {
    name = serverVariable.replace(/^HTTP_/i, '').toLowerCase().replaceAll('_', '-');
    if (headerNames.size < 1_000) headerNames.set(serverVariable, name);
  }
  return name;
}

function edgeCountry(headers: IncomingHttpHeaders, variables: readonly string[]): string {
  for (const variable of variables) {
    if (typeof variable !== 'string') continue;
    const value = headers[headerName(variable)];
    const code = countryCode(Array.isArray(value) ? value[0] : value);
    if (code) return code;
  }
  return '';
}

const countryOnly = (code: string): SvcLocation => ({ country_code: code, continent_code: continentOf(code) });

/** A location a filter returned, kept only when it names a real country. */
function valid(location: unknown): SvcLocation | null {
  if (!location || typeof location !== 'object') return null;
  const l = location as SvcLocation;
  const code = countryCode(l.country_code);
  return code ? { ...l, country_code: code, continent_code: l.continent_code || continentOf(code) } : null;
}

/**
 * Location of a visitor (tracking.md §6, §8.1): `svc_country_code_for_ip`
 * short-circuits; private and loopback addresses go to
 * `svc_localhost_location_data`; the free country reader prefers an edge
 * country header, the city reader stays authoritative when it finds a record
 * and falls back to the edge country.
 */
export class Locator {
  constructor(
    private readonly hooks: Hooks,
    private readonly defaultHandler: string,
  ) {}

  /** The location, at once when no filter on the way waits. */
  locate(ip: string, headers: IncomingHttpHeaders): Soon<SvcLocation | null> {
    return runSoon(this.steps(ip, headers));
  }

  private *steps(ip: string, headers: IncomingHttpHeaders): SoonSteps<SvcLocation | null> {
    const { hooks } = this;
    if (!ip || !((yield hooks.applyFiltersSoon('svc_geo_ip_enabled', true)) as boolean)) return null;
    const forced = countryCode((yield hooks.applyFiltersSoon('svc_country_code_for_ip', '', ip)) as unknown);
    let location: SvcLocation | null;
    if (forced) {
      location = countryOnly(forced);
    } else if (!isPublicIp(ip)) {
      location = valid((yield hooks.applyFiltersSoon('svc_localhost_location_data', null, ip)) as unknown);
    } else {
      const handler = (yield hooks.applyFiltersSoon('svc_geoip_handler', this.defaultHandler)) as string;
      const reader: GeoReader = READERS[handler] ?? countryReader;
      const variables = hooks.hasFilter('svc_cdn_country_headers')
        ? ((yield hooks.applyFiltersSoon('svc_cdn_country_headers', [...DEFAULT_CDN_COUNTRY_HEADERS])) as unknown)
        : DEFAULT_CDN_COUNTRY_HEADERS;
      const edge = Array.isArray(variables) ? edgeCountry(headers, variables) : '';
      if (handler === CITY_READER) location = reader.lookup(ip) ?? (edge ? countryOnly(edge) : null);
      else location = edge ? countryOnly(edge) : reader.lookup(ip);
    }
    return valid((yield hooks.applyFiltersSoon('svc_location_data', location, ip)) as unknown);
  }
}
