export const CAMPAIGN_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type CampaignField = (typeof CAMPAIGN_FIELDS)[number];
export type Campaign = Record<CampaignField, string>;

const MAX = 255;
const isControl = (c: string) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127;
const clean = (value: string) => [...value].filter((c) => !isControl(c)).join('').trim().slice(0, MAX);

/** The UTM parameters of a query string (`utm_source`...), or null when it carries none. */
export function parseUtm(parameters: string): Campaign | null {
  if (!parameters || !parameters.toLowerCase().includes('utm_')) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(parameters.startsWith('?') ? parameters.slice(1) : parameters);
  } catch {
    return null;
  }
  const lower = new Map<string, string>();
  for (const [key, value] of params) if (!lower.has(key.toLowerCase())) lower.set(key.toLowerCase(), value);
  const campaign = Object.fromEntries(
    CAMPAIGN_FIELDS.map((f) => [f, clean(lower.get(`utm_${f}`) ?? '')]),
  ) as Campaign;
  return CAMPAIGN_FIELDS.some((f) => campaign[f] !== '') ? campaign : null;
}
