import { countries } from 'countries-list';

/** ISO 3166-1 alpha-2 codes known to the country list, with their continent. */
const CONTINENTS: ReadonlyMap<string, string> = new Map(Object.entries(countries).map(([code, c]) => [code, c.continent]));

export const COUNTRY_CODES: readonly string[] = [...CONTINENTS.keys()].sort();

/** An upper-case alpha-2 code of a real country, or ''. */
export function countryCode(value: unknown): string {
  if (typeof value !== 'string') return '';
  const code = value.trim().toUpperCase();
  return CONTINENTS.has(code) ? code : '';
}

export function continentOf(code: string): string {
  return CONTINENTS.get(code) ?? '';
}

/** The negative placeholder city_code of a country-only location: stable, one per code. */
export function countryPlaceholderCode(code: string): number {
  return -((code.charCodeAt(0) - 64) * 27 + (code.charCodeAt(1) - 64));
}
