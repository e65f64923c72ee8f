import path from 'node:path';
import { VIEWS_DIR } from '../paths';
import { SECRET_MASK, type SettingField, type Settings } from '../settings/settings';
import type { Sites } from '../sites/sites';
import type { Site } from '../sites/types';
import type { AdminRequest, AdminResult, AdminService } from './admin';

const VIEW = path.join(VIEWS_DIR, 'settings.ejs');
/** Sections show in the order their first field was registered, except this one, which comes last. */
const LAST_SECTION = 'Advanced';

/** What the form shows for a field: a flag, a list of chosen values or text. */
function shown(field: SettingField, value: unknown): boolean | string[] | string {
  if (field.secret) return value ? SECRET_MASK : '';
  if (field.type === 'boolean') return value === true || value === '1' || value === 'on' || value === 'true';
  if (field.type === 'multiselect') return (Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value]).map(String);
  return value === undefined || value === null ? '' : String(value);
}

/**
 * A posted form as `Settings.save` input: an unchecked box sends nothing, so
 * absent flags are false and absent lists empty; extra fields are passed on
 * and refused by the registry.
 */
function formInput(fields: readonly SettingField[], body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = body[field.key];
    input[field.key] = raw !== undefined ? raw : field.type === 'boolean' ? false : field.type === 'multiselect' ? [] : undefined;
  }
  for (const [key, raw] of Object.entries(body)) if (key !== '_svc_nonce' && !(key in input)) input[key] = raw;
  return input;
}

/** The page's site and whether the install has others (then the page says which fields are whose). */
interface Scope {
  site: Site;
  several: boolean;
}

async function page(settings: Settings, scope: Scope, values: Record<string, unknown>, errors: Record<string, string>, saved: boolean, status = 200): Promise<AdminResult> {
  const fields = settings.list();
  type Item = { field: SettingField; value: ReturnType<typeof shown>; error?: string; everySite: boolean };
  const sections: Array<{ name: string; fields: Item[] }> = [];
  for (const field of fields) {
    let section = sections.find((s) => s.name === field.section);
    if (!section) sections.push((section = { name: field.section, fields: [] }));
    section.fields.push({ field, value: shown(field, values[field.key]), error: errors[field.key], everySite: scope.several && !field.perSite });
  }
  sections.sort((a, b) => Number(a.name === LAST_SECTION) - Number(b.name === LAST_SECTION));
  const known = new Set(fields.map((f) => f.key));
  const stray = Object.entries(errors).filter(([key]) => !known.has(key)).map(([key, message]) => `${key}: ${message}`);
  const panels = await Promise.all(settings.panels().map(async (p) => ({ key: p.key, title: p.title, ...(await p.render()) })));
  const data = { sections, panels, saved, stray, failed: Object.keys(errors).length > 0, site: scope.several ? scope.site : null };
  return { view: VIEW, title: 'Settings', status, data };
}

/**
 * `/svc-admin/settings`: every registered setting by section; a refused value
 * is shown next to its field and nothing is saved. Per-site fields are those
 * of the site chosen in the header; the form names that site, so a choice
 * made meanwhile in another tab does not change where it saves.
 */
export function registerSettingsPage(admin: AdminService, settings: Settings, sites: Sites): void {
  const scope = async (req: AdminRequest): Promise<Scope> => ({ site: req.raw.site ?? (await sites.default()), several: (await sites.list()).length > 1 });
  admin.page({
    path: '/settings',
    capability: 'manage_options',
    get: async (req) => {
      const at = await scope(req);
      // `saved` names the site saved, so switching sites from the page after saving does not claim the other was saved.
      return page(settings, at, await settings.values(at.site.id), {}, req.query.saved === String(at.site.id));
    },
    post: async (req) => {
      const at = await scope(req);
      const input = formInput(settings.list(), req.body);
      const result = await settings.save(input, at.site.id);
      if (result.saved) return { redirect: `${admin.url('/settings')}?${at.several ? `site=${at.site.id}&` : ''}saved=${at.site.id}` };
      return page(settings, at, input, result.errors, false, 400);
    },
  });
}
