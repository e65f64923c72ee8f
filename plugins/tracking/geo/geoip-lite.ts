import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Lookup } from 'geoip-lite';

export interface GeoipLite {
  lookup(ip: string): Lookup | null;
}

const COUNTRY_FILES = ['geoip-country.dat', 'geoip-country6.dat'];

/**
 * geoip-lite reads its data directory once, when first required, and keeps
 * the whole database in memory: the city files take ~150 MB, the country
 * files ~15 MB. The country reader therefore loads it from a directory that
 * links only the country files; a process that needs cities loads the full
 * set instead. The library holds its data in module state, so this is one
 * per process, and the first reader used decides which set it is.
 */
let loaded: { lib: GeoipLite; cities: boolean } | null = null;

function countryOnlyDir(source: string): string | null {
  const dir = path.join(os.tmpdir(), `svc-geoip-country-${createHash('sha1').update(source).digest('hex').slice(0, 12)}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    for (const file of COUNTRY_FILES) {
      const link = path.join(dir, file);
      if (fs.existsSync(link)) continue;
      try {
        fs.symlinkSync(path.join(source, file), link);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    return dir;
  } catch {
    return null;
  }
}

/** The geoip-lite database of this process; `cities` asks for the city set. */
export function geoipLite(cities: boolean): { lib: GeoipLite; cities: boolean } {
  if (loaded) return loaded;
  const source = path.dirname(require.resolve('geoip-lite/data/geoip-country.dat'));
  const dir = cities ? source : (countryOnlyDir(source) ?? source);
  (globalThis as { geodatadir?: string }).geodatadir = dir;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require('geoip-lite') as GeoipLite;
  loaded = { lib, cities: dir === source };
  return loaded;
}
