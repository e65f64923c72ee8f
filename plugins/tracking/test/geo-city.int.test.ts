import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { pageview, rows, track } from './helpers';

describe('location enrichment, paid city reader (tracking.md §8.1)', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_LICENSE: 'creator' } });
  });
  afterAll(() => tk.close());

  const location = async (uid: string) => {
    const [session] = await rows(tk, 'sessions', 'uid = ?', [uid]);
    return (await rows(tk, 'locations', 'city_code = ?', [session!.city_code]))[0]!;
  };

  it('stores a city with a positive city_code, and stays authoritative over the edge header', async () => {
    await track(tk, pageview('https://site.example/', 'city1'), { headers: { 'x-forwarded-for': '81.2.69.142', 'cf-ipcountry': 'DE' } });
    const loc = await location('city1');
    expect(loc).toMatchObject({ country_code: 'GB', continent_code: 'EU', state: 'ENG', city: 'St Albans' });
    expect(Number(loc.city_code)).toBeGreaterThan(0);
    await track(tk, pageview('https://site.example/', 'city2'), { headers: { 'x-forwarded-for': '81.2.69.142' } });
    expect((await rows(tk, 'sessions', 'uid = ?', ['city2']))[0]!.city_code).toBe(loc.city_code);
  });

  it('keeps a country-only record when the database has no city, and uses the edge country when it has nothing', async () => {
    await track(tk, pageview('https://site.example/', 'nocity'), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    const loc = await location('nocity');
    expect(loc).toMatchObject({ country_code: 'US', city: '' });
    expect(Number(loc.city_code)).toBeLessThan(0);
    await track(tk, pageview('https://site.example/', 'edgeonly'), { headers: { 'x-forwarded-for': '1.1.1.1', 'cf-ipcountry': 'AU' } });
    expect(await location('edgeonly')).toMatchObject({ country_code: 'AU', continent_code: 'OC' });
  });
});
