import { type PluginContext, runSoon } from '../../../core';
import type { SvcLocation } from '../../../hooks';
import type { HitHeaders } from '../collect/hit-headers';
import { Locations } from './locations';
import { Locator } from './locator';
import { CITY_READER, COUNTRY_READER } from './readers';

/**
 * Location enrichment on `svc_before_track_hit` (tracking.md §3.3 step 6):
 * resolved only on a session's first hit (no previous hit), stored as the
 * session's city_code. Seeds the country rows of the locations table.
 */
export async function registerGeo(ctx: PluginContext, hitHeaders: HitHeaders): Promise<void> {
  const locations = new Locations(ctx.db);
  await locations.seed();
  const locator = new Locator(ctx.hooks, ctx.config.pro ? CITY_READER : COUNTRY_READER);
  ctx.hooks.addFilter(
    'svc_before_track_hit',
    (hit, hitType, previous) =>
      runSoon(
        (function* () {
          if (hitType !== 'create' || 'ID' in previous) return hit;
          const location = (yield locator.locate(hit.ip, hitHeaders.get(hit) ?? ctx.http.currentHeaders() ?? {})) as SvcLocation | null;
          if (!location) return hit;
          // In place: the pipeline hands each filter run its own copy.
          hit.city_code = (yield locations.codeFor(location)) as number;
          hit.country_code = location.country_code;
          return hit;
        })(),
      ),
    { priority: 5 },
  );
}
