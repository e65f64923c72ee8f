import { countries } from 'countries-list';
import { definePlugin } from '../../../core';
import type { SvcLocation } from '../../../hooks';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { count, pageview, rows, track } from './helpers';

const knobs = { headers: null as string[] | null, forced: '', localhost: null as SvcLocation | null, handler: '', enabled: true, override: null as SvcLocation | null };
const probe = definePlugin({
  name: 'geo-probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_cdn_country_headers', (headers) => knobs.headers ?? headers);
    ctx.hooks.addFilter('svc_country_code_for_ip', (code) => knobs.forced || code);
    ctx.hooks.addFilter('svc_localhost_location_data', (location) => knobs.localhost ?? location);
    ctx.hooks.addFilter('svc_geoip_handler', (handler) => knobs.handler || handler);
    ctx.hooks.addFilter('svc_geo_ip_enabled', (enabled) => enabled && knobs.enabled);
    ctx.hooks.addFilter('svc_location_data', (location) => knobs.override ?? location);
  },
});

/** The location row of the session a uid started. */
async function locationOf(tk: TestKernel, uid: string) {
  const [session] = await rows(tk, 'sessions', 'uid = ?', [uid]);
  const code = Number(session!.city_code);
  const [location] = await rows(tk, 'locations', 'city_code = ?', [code]);
  return { code, ...location };
}

describe('location enrichment, free country reader (tracking.md §8.1)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [probe] });
  });
  afterAll(() => tk.close());

  it('seeds one negative placeholder city_code per country, idempotently', async () => {
    const n = Object.keys(countries).length;
    expect(await count(tk, 'locations', 'city_code < 0')).toBe(n);
    const again = await createTestKernel({ plugins: ['tracking'], database: tk.database });
    await again.close();
    expect(await count(tk, 'locations')).toBe(n);
    const codes = await rows<{ city_code: number }>(tk, 'locations');
    expect(new Set(codes.map((c) => c.city_code)).size).toBe(n);
  });

  it('resolves the country and its continent from the visitor IP', async () => {
    await track(tk, pageview('https://site.example/', 'us-visitor'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect(await locationOf(tk, 'us-visitor')).toMatchObject({ country_code: 'US', continent_code: 'NA', city: '' });
    expect((await locationOf(tk, 'us-visitor')).code).toBeLessThan(0);
    await track(tk, pageview('https://site.example/', 'gb-visitor'), { headers: { 'x-forwarded-for': '81.2.69.142' } });
    expect(await locationOf(tk, 'gb-visitor')).toMatchObject({ country_code: 'GB', continent_code: 'EU', city: '' });
  });

  it('prefers an edge country header, and an empty header list disables it', async () => {
    await track(tk, pageview('https://site.example/', 'edge1'), { headers: { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'de' } });
    expect(await locationOf(tk, 'edge1')).toMatchObject({ country_code: 'DE', continent_code: 'EU' });
    await track(tk, pageview('https://site.example/', 'edge2'), { headers: { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'XX' } });
    expect(await locationOf(tk, 'edge2')).toMatchObject({ country_code: 'US' });
    knobs.headers = [];
    await track(tk, pageview('https://site.example/', 'edge3'), { headers: { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'DE' } });
    expect(await locationOf(tk, 'edge3')).toMatchObject({ country_code: 'US' });
    knobs.headers = ['HTTP_X_MY_COUNTRY'];
    await track(tk, pageview('https://site.example/', 'edge4'), { headers: { 'x-forwarded-for': '8.8.8.8', 'x-my-country': 'JP' } });
    expect(await locationOf(tk, 'edge4')).toMatchObject({ country_code: 'JP', continent_code: 'AS' });
    knobs.headers = null;
  });

  it('short-circuits with svc_country_code_for_ip', async () => {
    knobs.forced = 'fr';
    await track(tk, pageview('https://site.example/', 'forced'), { headers: { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'DE' } });
    expect(await locationOf(tk, 'forced')).toMatchObject({ country_code: 'FR', continent_code: 'EU' });
    knobs.forced = 'not a country';
    await track(tk, pageview('https://site.example/', 'forced2'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect(await locationOf(tk, 'forced2')).toMatchObject({ country_code: 'US' });
    knobs.forced = '';
  });

  it('handles private and loopback addresses without errors, through svc_localhost_location_data', async () => {
    await track(tk, pageview('https://site.example/', 'lan'), { headers: { 'x-forwarded-for': '192.168.0.7' } });
    expect((await rows(tk, 'sessions', 'uid = ?', ['lan']))[0]!.city_code).toBe(0);
    knobs.localhost = { country_code: 'NL' };
    await track(tk, pageview('https://site.example/', 'loop'), { headers: {} });
    expect(await locationOf(tk, 'loop')).toMatchObject({ country_code: 'NL', continent_code: 'EU' });
    knobs.localhost = null;
  });

  it('resolves the location only on the first hit of a session', async () => {
    await track(tk, pageview('https://site.example/a/', 'traveller'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    await track(tk, pageview('https://site.example/b/', 'traveller'), { headers: { 'x-forwarded-for': '81.2.69.142' } });
    const sessions = await rows(tk, 'sessions', 'uid = ?', ['traveller']);
    expect(sessions).toHaveLength(1);
    expect(await locationOf(tk, 'traveller')).toMatchObject({ country_code: 'US' });
  });

  it('skips location when svc_geo_ip_enabled says so, and stores what svc_location_data returns', async () => {
    knobs.enabled = false;
    await track(tk, pageview('https://site.example/', 'nogeo'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect((await rows(tk, 'sessions', 'uid = ?', ['nogeo']))[0]!.city_code).toBe(0);
    knobs.enabled = true;
    knobs.override = { country_code: 'CA', region: 'QC', city: 'Montréal <b>' };
    await track(tk, pageview('https://site.example/', 'override'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    const loc = await locationOf(tk, 'override');
    expect(loc).toMatchObject({ country_code: 'CA', continent_code: 'NA', state: 'QC', city: 'Montréal b' });
    expect(loc.code).toBeGreaterThan(0);
    knobs.override = { country_code: 'ZZ' };
    await track(tk, pageview('https://site.example/', 'badoverride'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect((await rows(tk, 'sessions', 'uid = ?', ['badoverride']))[0]!.city_code).toBe(0);
    knobs.override = null;
  });

  it('falls back to the country reader for an unknown handler name', async () => {
    knobs.handler = 'NoSuchReader';
    await track(tk, pageview('https://site.example/', 'unknown-handler'), { headers: { 'x-forwarded-for': '81.2.69.142' } });
    expect(await locationOf(tk, 'unknown-handler')).toMatchObject({ country_code: 'GB', city: '' });
    knobs.handler = '';
  });
});
