import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { type Database, insertIfAbsent, insertIgnoring, type Soon } from '../../../core';
import type { SvcLocation } from '../../../hooks';
import { cleanText } from '../collect/text';
import { COUNTRY_CODES, continentOf, countryPlaceholderCode } from './countries';

/**
 * Positive city_code for a city: its geoname id when the reader has one,
 * else a stable 48-bit number from country, region and city, the same on
 * every node and across database updates.
 */
export function cityCode(country: string, region: string, city: string): number {
  const digest = createHash('sha256').update(`${country}|${region}|${city}`.toLowerCase()).digest();
  return digest.readUIntBE(0, 6) + 1;
}

/** Location text from a reader or a filter, without markup characters. */
const plain = (value: unknown) => cleanText(value, 255).replace(/[<>"]/g, '').trim();

/** The locations table (tracking.md §2.3): country placeholders seeded, cities added on first sight. */
export class Locations {
  private readonly known = new LRUCache<number, true>({ max: 20_000 });

  constructor(private readonly db: Database) {}

  /** One negative city_code row per country; running it again changes nothing. */
  async seed(): Promise<void> {
    const rows = COUNTRY_CODES.map((code) => [countryPlaceholderCode(code), code, continentOf(code), '', '']);
    await insertIgnoring(this.db, this.db.table('locations'), ['city_code', 'country_code', 'continent_code', 'state', 'city'], rows);
    for (const [code] of rows) this.known.set(code as number, true);
  }

  /** The city_code of a location (at once when its row is known to exist), its row stored when first seen. */
  codeFor(location: SvcLocation): Soon<number> {
    const city = plain(location.city);
    const positive = Number.isSafeInteger(location.city_code) && location.city_code! > 0 ? location.city_code! : 0;
    const code = city || positive ? positive || cityCode(location.country_code, plain(location.region), city) : countryPlaceholderCode(location.country_code);
    return this.known.has(code) ? code : this.store(code, location, city);
  }

  private async store(code: number, location: SvcLocation, city: string): Promise<number> {
    await insertIfAbsent(this.db, this.db.table('locations'), {
      city_code: code,
      country_code: location.country_code,
      continent_code: location.continent_code || continentOf(location.country_code),
      state: plain(location.region),
      city,
    });
    this.known.set(code, true);
    return code;
  }
}
