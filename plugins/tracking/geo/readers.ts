import type { SvcLocation } from '../../../hooks';
import { continentOf, countryCode } from './countries';
import { geoipLite } from './geoip-lite';
import { cityCode } from './locations';

/** A geo database reader, chosen by name through `svc_geoip_handler`. */
export interface GeoReader {
  lookup(ip: string): SvcLocation | null;
}

export const COUNTRY_READER = 'CountryReader';
export const CITY_READER = 'CityReader';

/** Free: geoip-lite's country database, with the continent from the country list. */
export const countryReader: GeoReader = {
  lookup(ip) {
    const code = countryCode(geoipLite(false).lib.lookup(ip)?.country);
    return code ? { country_code: code, continent_code: continentOf(code) } : null;
  },
};

/** Paid: geoip-lite's city database; a record without a city is country-only. */
export const cityReader: GeoReader = {
  lookup(ip) {
    const record = geoipLite(true).lib.lookup(ip);
    const code = countryCode(record?.country);
    if (!record || !code) return null;
    const location: SvcLocation = { country_code: code, continent_code: continentOf(code) };
    if (record.city) {
      location.region = record.region;
      location.city = record.city;
      location.city_code = cityCode(code, record.region, record.city);
    }
    return location;
  },
};

export const READERS: Readonly<Record<string, GeoReader>> = { [COUNTRY_READER]: countryReader, [CITY_READER]: cityReader };
