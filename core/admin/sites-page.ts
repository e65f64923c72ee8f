import path from 'node:path';
import { SvcError, isSvcError } from '../errors';
import { problemsOf } from '../field-problems';
import { VIEWS_DIR } from '../paths';
import type { Sites } from '../sites/sites';
import { DEFAULT_SITE_ID, type Site, type SiteInput } from '../sites/types';
import type { AdminRequest, AdminResult, AdminService } from './admin';
import type { FieldErrors } from './password-fields';

const VIEW = path.join(VIEWS_DIR, 'sites.ejs');

interface SiteValues {
  name: string;
  domain: string;
  aliases: string;
  timezone: string;
}

interface PageState {
  /** The add form's values and problems. */
  values?: SiteValues;
  errors?: FieldErrors;
  /** A listed site's edit form, refused: its values and problems. */
  rowError?: { id: number; values: SiteValues; errors: FieldErrors; message: string };
  notice?: string;
  status?: number;
}

const NOTICES: Readonly<Record<string, string>> = {
  added: 'The site was added.',
  saved: 'The site was saved.',
  removed: 'The site was removed with all its data.',
};

const text = (body: Readonly<Record<string, unknown>>, name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');

const valuesOf = (site: Site): SiteValues => ({ name: site.name, domain: site.domain ?? '', aliases: site.aliases.join(', '), timezone: site.timezone });

const inputOf = (values: SiteValues): SiteInput => ({
  name: values.name,
  domain: values.domain === '' ? null : values.domain,
  aliases: values.aliases.split(/[\s,]+/).filter(Boolean),
  timezone: values.timezone,
});

/** The refused fields of a sites-service refusal, for the form; null for any other error. */
function fieldErrors(err: unknown): FieldErrors | null {
  const problems = problemsOf(err);
  return problems && Object.fromEntries(problems.map((p) => [p.field, `${p.problem.charAt(0).toUpperCase()}${p.problem.slice(1)}.`]));
}

/**
 * `/svc-admin/sites` (administrators): the websites of the install, adding
 * one, editing its name, domain, aliases and time zone, and removing one
 * (never the default site) — which deletes its data, so the form asks twice:
 * the browser's question and a box to tick.
 */
export function registerSitesPage(admin: AdminService, sites: Sites, defaultTimezone: string): void {
  const render = async (state: PageState): Promise<AdminResult> => ({
    view: VIEW,
    title: 'Sites',
    status: state.status ?? 200,
    data: {
      sites: await sites.list(),
      defaultSiteId: DEFAULT_SITE_ID,
      valuesOf,
      timezones: Intl.supportedValuesOf('timeZone'),
      values: { name: '', domain: '', aliases: '', timezone: defaultTimezone },
      errors: {},
      rowError: null,
      notice: '',
      ...state,
    },
  });

  const formValues = (body: Readonly<Record<string, unknown>>): SiteValues => ({
    name: text(body, 'name'),
    domain: text(body, 'domain'),
    aliases: text(body, 'aliases'),
    timezone: text(body, 'timezone'),
  });

  const target = async (req: AdminRequest): Promise<Site> => {
    const site = /^\d+$/.test(text(req.body, 'id')) ? await sites.get(Number(req.body.id)) : null;
    if (!site) throw new SvcError('svc_unknown_site', 'That site does not exist (any more).', 404);
    return site;
  };

  admin.page({
    path: '/sites',
    capability: 'manage_options',
    get: (req) => render({ notice: NOTICES[String(req.query.done)] ?? '' }),
    post: async (req) => {
      const values = formValues(req.body);
      switch (req.body.action) {
        case 'add':
          try {
            await sites.add({ ...inputOf(values), name: values.name });
          } catch (err) {
            const errors = fieldErrors(err);
            if (!errors) throw err;
            return render({ values, errors, status: 400 });
          }
          return { redirect: `${admin.url('/sites')}?done=added` };
        case 'edit': {
          const site = await target(req);
          try {
            await sites.update(site.id, inputOf(values));
          } catch (err) {
            const errors = fieldErrors(err);
            if (!errors) throw err;
            return render({ rowError: { id: site.id, values, errors, message: 'Nothing was saved: fix what is marked below.' }, status: 400 });
          }
          return { redirect: `${admin.url('/sites')}?done=saved` };
        }
        case 'remove': {
          const site = await target(req);
          if (req.body.delete_data !== 'yes') {
            const message = `Tick the box to confirm that every hit, goal, report and share link of ${site.name} is deleted.`;
            return render({ rowError: { id: site.id, values: valuesOf(site), errors: {}, message }, status: 400 });
          }
          try {
            await sites.remove(site.id);
          } catch (err) {
            if (!isSvcError(err) || err.status >= 500) throw err;
            return render({ rowError: { id: site.id, values: valuesOf(site), errors: {}, message: err.message }, status: err.status });
          }
          return { redirect: `${admin.url('/sites')}?done=removed` };
        }
        default:
          throw new SvcError('svc_invalid_param', 'Unknown form action.', 400);
      }
    },
  });
}
