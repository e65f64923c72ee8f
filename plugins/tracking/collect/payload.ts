import { badRequest } from '../../../core';
import type { SvcSanitizedHit } from '../../../hooks';
import { cleanText, parseHttpUrl, toUint, truncate } from './text';

/** The client payload of tracking.md §2.1 after type checks and clean-up. */
export type HitPayload = Omit<
  SvcSanitizedHit,
  'browser_id' | 'browser_version_id' | 'platform_id' | 'device_id' | 'ip' | 'time' | 'city_code' | 'country_code'
>;

/** Longest time-on-page a single hit may add (a day). */
const MAX_SECONDS = 86_400;
const MAX_GOALS = 50;
const ID_RE = /^[A-Za-z0-9._-]{1,64}$/;
const PAGE_TYPE_RE = /^[a-z0-9_-]{1,50}$/;

/** Raw body to payload object: a JSON object, or a JSON string holding one (double-encoded). */
export function decodeBody(body: unknown): Record<string, unknown> | 'test' {
  let value = body;
  for (let depth = 0; typeof value === 'string' && depth < 2; depth++) {
    const text = value.trim();
    if (text === 'request=test') return 'test';
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('The hit payload is not valid JSON.', 'svc_invalid_json');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('The hit payload must be a JSON object.', 'svc_invalid_payload');
  }
  const payload = value as Record<string, unknown>;
  return payload.request === 'test' ? 'test' : payload;
}

/**
 * An identifier the client generated (uid, fingerprint), lowercased so both
 * databases compare it alike (MySQL collations ignore case); `false`, junk or
 * markup give ''.
 */
export function cleanId(value: unknown): string {
  return typeof value === 'string' && ID_RE.test(value) ? value.toLowerCase() : '';
}

/** The external link URL kept only for http(s) with a valid host (§3.3 step 2). */
export function cleanExternalUrl(value: unknown): string {
  const url = parseHttpUrl(value, 2048);
  return url ? url.href : '';
}

const MARKUP = /<\s*\/?\s*[a-z!]|javascript\s*:/i;

/**
 * Plain text of a search term: whitespace collapsed, entities removed. A term
 * carrying markup is a probe, not a search: it gives ''.
 */
export function plainText(value: unknown, max: number): string {
  const text = cleanText(value, 2000);
  if (MARKUP.test(text)) return '';
  return truncate(
    text
      .replace(/[<>"]/g, ' ')
      .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/**
 * The viewport width classes the trackers send in their own optional `screen`
 * field (README "Screen sizes"): mobile < 576 px, tablet < 992, laptop < 1440,
 * desktop from 1440.
 */
export const SCREEN_CLASSES: readonly string[] = ['mobile', 'tablet', 'laptop', 'desktop'];

/** The screen class of a payload, '' for none or anything else. */
export function screenClass(value: unknown): string {
  return typeof value === 'string' && SCREEN_CLASSES.includes(value) ? value : '';
}

function goalIds(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  const ids = new Set<number>();
  for (const item of value.slice(0, MAX_GOALS)) {
    const id = toUint(item, Number.MAX_SAFE_INTEGER);
    if (id > 0) ids.add(id);
  }
  return [...ids];
}

/** What the pipeline adds to a cleaned payload: identity, address, time, lookup ids and location. */
type HitAdditions = Omit<SvcSanitizedHit, keyof HitPayload> & Pick<SvcSanitizedHit, 'uid' | 'fingerprint'>;

/**
 * The sanitized hit of tracking.md §6, written out field by field; with the
 * same object twice, a copy. V8 is slow to add properties to an object made
 * by spreading another (`{ ...hit, uid }` costs microseconds a call), and the
 * pipeline builds and copies this one on every hit.
 */
export function sanitizedHit(hit: HitPayload, more: HitAdditions): SvcSanitizedHit {
  return {
    url: hit.url,
    host: hit.host,
    path: hit.path,
    parameters: hit.parameters,
    fragment: hit.fragment,
    referrer: hit.referrer,
    uid: more.uid,
    fingerprint: more.fingerprint,
    user_agent: hit.user_agent,
    time_on_page: hit.time_on_page,
    completed_goals: hit.completed_goals,
    page_id: hit.page_id,
    page_type: hit.page_type,
    search_term: hit.search_term,
    external_link_url: hit.external_link_url,
    should_load_ecommerce: hit.should_load_ecommerce,
    browser_id: more.browser_id,
    browser_version_id: more.browser_version_id,
    platform_id: more.platform_id,
    device_id: more.device_id,
    ip: more.ip,
    time: more.time,
    city_code: more.city_code,
    country_code: more.country_code,
  };
}

/**
 * Validates and cleans a payload (§3.3 step 2). Only a missing or invalid page
 * URL refuses the hit; every other field falls back to its empty value.
 * `page` is `p.url` parsed, when the caller has parsed it already.
 */
export function sanitisePayload(p: Record<string, unknown>, page: URL | null = parseHttpUrl(p.url)): HitPayload {
  if (!page) throw badRequest('url: an http(s) page URL is required.', 'svc_invalid_url');
  const referrer = parseHttpUrl(p.referrer_url);
  const pageType = typeof p.page_type === 'string' ? p.page_type.trim().toLowerCase() : '';
  return {
    url: truncate(`${page.origin}${page.pathname}`, 2048),
    host: page.host.toLowerCase(),
    path: truncate(page.pathname, 255),
    parameters: truncate(cleanText(page.search.replace(/^\?/, ''), 1000), 255),
    fragment: truncate(cleanText(page.hash.replace(/^#/, ''), 1000), 255),
    referrer: referrer && referrer.host.toLowerCase() !== page.host.toLowerCase() ? truncate(referrer.href, 255) : '',
    uid: cleanId(p.uid),
    fingerprint: cleanId(p.fingerprint),
    user_agent: cleanText(p.user_agent, 1000),
    time_on_page: toUint(p.time_on_page, MAX_SECONDS),
    completed_goals: goalIds(p.completed_goals),
    page_id: toUint(p.page_id, Number.MAX_SAFE_INTEGER),
    page_type: PAGE_TYPE_RE.test(pageType) ? pageType : '',
    search_term: plainText(p.search_term, 191),
    external_link_url: cleanExternalUrl(p.external_link_url),
    should_load_ecommerce: p.should_load_ecommerce === true || p.should_load_ecommerce === 1 || p.should_load_ecommerce === '1',
  };
}
