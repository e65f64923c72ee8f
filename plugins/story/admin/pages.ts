import path from 'node:path';
import { type AdminResult, type PluginContext, problemsOf } from '../../../core';
import type { StoryApp } from '../app';
import { shareInputDeps } from '../routes/rest';
import { DEFAULT_EXPIRATION, EXPIRATIONS, parseShareInput } from '../services/share-input';
import type { ShareLink } from '../types';
import { type ShareFormValues, emptyForm, formProblems, shareBodyFromValues, shareFormErrors, valuesFromBody } from './form';

const VIEW = path.join(__dirname, '..', 'views', 'admin', 'share.ejs');
export const ADMIN_SCRIPT = 'plugins/story/client/share-admin.entry.ts';
const NOTICES: Readonly<Record<string, string>> = { revoked: 'The link was revoked; it stops working at once.' };

/** `/svc-admin/share` (`manage_svc_statistics`): make a link of the selected site, copy it, see when each one expires, revoke it. */
export function registerAdminPages(ctx: PluginContext, app: StoryApp): void {
  const site = () => ctx.sites.current();
  const page = async (values: ShareFormValues, extra: { created?: ShareLink | null; notice?: string; errors?: Record<string, string> }, status?: number): Promise<AdminResult> => {
    const { id, timezone } = await site();
    return {
    view: VIEW,
    title: 'Share links',
    status,
    data: {
      values,
      links: await app.tokens.getShareLinks(id),
      tabs: await app.tabs(),
      expirations: Object.keys(EXPIRATIONS),
      timezone,
      script: await ctx.assets.versionedUrl(ADMIN_SCRIPT),
      created: extra.created ?? null,
      notice: extra.notice ?? '',
      errors: extra.errors ?? {},
      dateLabel: (unix: number) => new Date(unix * 1000).toLocaleString('en-GB', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }),
    },
    };
  };

  ctx.admin.menuItem({ id: 'share', title: 'Share links', shareable: false, path: '/svc-admin/share', capability: 'manage_svc_statistics', order: 45 });

  ctx.admin.page({
    path: '/share',
    capability: 'manage_svc_statistics',
    get: async (req) => {
      const resolved = typeof req.query.created === 'string' ? await app.tokens.resolve(req.query.created) : null;
      const created = resolved && resolved.siteId === (await site()).id ? resolved : null;
      return page(emptyForm(DEFAULT_EXPIRATION), { created, notice: NOTICES[String(req.query.done)] ?? '' });
    },
    post: async (req) => {
      const values = valuesFromBody(req.body);
      const refusedForm = formProblems(values);
      if (refusedForm.length) return page(values, { errors: shareFormErrors(refusedForm) }, 400);
      try {
        const link = await app.tokens.create((await site()).id, await parseShareInput(shareBodyFromValues(values), await shareInputDeps(ctx, app)));
        return { redirect: `${ctx.admin.url('/share')}?created=${link.token}` };
      } catch (err) {
        const problems = problemsOf(err);
        if (!problems) throw err;
        return page(values, { errors: shareFormErrors(problems) }, 400);
      }
    },
  });

  ctx.admin.page({
    path: '/share/revoke',
    capability: 'manage_svc_statistics',
    post: async (req) => {
      await app.tokens.revoke((await site()).id, String(req.body.token ?? ''));
      return { redirect: `${ctx.admin.url('/share')}?done=revoked` };
    },
  });
}
