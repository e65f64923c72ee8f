import path from 'node:path';
import { type AdminRequest, type AdminResult, isSvcError, type PluginContext, problemsOf } from '../../../core';
import type { ReportsApp } from '../app';
import { DATE_RANGES, DAYS_OF_WEEK, DEFAULT_BLOCKS, FREQUENCIES, LOG_WINDOW_DAYS } from '../constants';
import { type ReportActions, parseId } from '../routes/actions';
import { reportNotFound } from '../services/editor';
import { queueLogs } from '../services/log-list';
import { defaultInput } from '../services/report-input';
import type { QueueLog, Report } from '../types';
import { type FormValues, inputFromValues, splitAddresses, valuesFromBody, valuesOf } from './form';
import { type FormErrors, formErrors } from './form-errors';
import { scheduleLabel, statusLabel, statusTone, timeLabel } from './labels';

const VIEWS = path.join(__dirname, '..', 'views', 'admin');
const NOTICES: Readonly<Record<string, string>> = {
  created: 'Report created.',
  updated: 'Report saved.',
  deleted: 'Report deleted.',
  sent: 'The first batch went out; the rest follow every 5 minutes. See the delivery log.',
};

/** The admin pages of reports of the selected site: list, create/edit form, preview with test send, send now, delivery log. */
export function registerAdminPages(ctx: PluginContext, app: ReportsApp, actions: ReportActions): void {
  const url = (p: string) => ctx.admin.url(p);
  const site = () => ctx.sites.current();
  const view = async (file: string, title: string, data: Record<string, unknown>, status?: number): Promise<AdminResult> => {
    const tz = (await site()).timezone;
    const helpers = { statusLabel, statusTone, scheduleLabel, timeLabel: (t: number) => timeLabel(t, tz), timezone: tz };
    return { view: path.join(VIEWS, file), title, data: { ...helpers, ...data }, status };
  };
  const run = async (action: string, body: unknown) => actions.run(await site(), action, body);
  const find = async (req: AdminRequest): Promise<Report> => {
    const id = parseIdOr404(req.params.id);
    const report = await app.reports.find((await site()).id, id);
    if (!report) throw reportNotFound(id);
    return report;
  };
  const formPage = async (values: FormValues, report: Report | null, errors: FormErrors, status?: number) =>
    view('form.ejs', report ? `Edit ${report.name}` : 'New report', {
      values,
      report,
      errors,
      formats: await app.editor.formats(),
      blocks: await app.builder.available(),
      frequencies: FREQUENCIES,
      days: DAYS_OF_WEEK,
      ranges: DATE_RANGES,
    }, status);
  const save = async (req: AdminRequest, report: Report | null): Promise<AdminResult> => {
    const values = valuesFromBody(req.body);
    const input = inputFromValues(values, report?.content ?? [], await app.builder.available());
    try {
      if (report) await run('update', { report: { ...input, id: report.id } });
      else await run('create', { report: input });
    } catch (err) {
      const problems = problemsOf(err);
      if (problems) return formPage(values, report, formErrors(problems, values), 400);
      throw err;
    }
    return { redirect: `${url('/reports')}?done=${report ? 'updated' : 'created'}` };
  };
  const previewPage = async (report: Report, extra: { result?: QueueLog | null; error?: string; recipients?: string }, status?: number) => {
    let html = '';
    let unavailable = '';
    try {
      html = ((await run('preview', { id: report.id })) as { html: string }).html;
    } catch (err) {
      if (!isSvcError(err) || err.status >= 500) throw err;
      unavailable = err.message;
    }
    const me = extra.recipients ?? (ctx.http.currentPrincipal().user?.email || report.recipients.join('\n'));
    return view('preview.ejs', `Preview of ${report.name}`, { report, html, unavailable, recipients: me, result: extra.result ?? null, error: extra.error ?? '' }, status);
  };

  ctx.admin.menuItem({ id: 'reports', title: 'Reports', shareable: false, path: '/svc-admin/reports', capability: 'manage_options', order: 40 });

  ctx.admin.page({
    path: '/reports',
    capability: 'manage_options',
    get: async (req) => view('list.ejs', 'Reports', { reports: await app.objects.list((await site()).id), notice: NOTICES[String(req.query.done)] ?? '', error: String(req.query.error ?? '') }),
  });
  ctx.admin.page({
    path: '/reports/logs',
    capability: 'manage_options',
    get: async () => view('logs.ejs', 'Delivery log', { logs: await queueLogs(app, (await site()).id, ctx.clock.unix() - LOG_WINDOW_DAYS * 86_400), days: LOG_WINDOW_DAYS }),
  });
  ctx.admin.page({
    path: '/reports/new',
    capability: 'manage_options',
    get: async () => {
      const blocks = (await app.builder.available()).map((b) => b.id).filter((id) => DEFAULT_BLOCKS.includes(id));
      return formPage({ ...valuesOf(defaultInput(await app.editor.formats())), blocks }, null, {});
    },
    post: (req) => save(req, null),
  });
  ctx.admin.page({
    path: '/reports/:id',
    capability: 'manage_options',
    get: async (req) => {
      const report = await find(req);
      return formPage(valuesOf(report), report, {});
    },
    post: async (req) => save(req, await find(req)),
  });
  ctx.admin.page({
    path: '/reports/:id/preview',
    capability: 'manage_options',
    get: async (req) => previewPage(await find(req), {}),
    post: async (req) => {
      const report = await find(req);
      const recipients = String(req.body.recipients ?? '');
      try {
        const { queue } = (await run('send-test-report', { id: report.id, recipients: splitAddresses(recipients) })) as { queue: QueueLog | null };
        return previewPage(report, { result: queue, recipients });
      } catch (err) {
        const problems = problemsOf(err);
        if (problems) return previewPage(report, { error: Object.values(formErrors(problems, valuesOf(report))).flat().join(' '), recipients }, 400);
        if (isSvcError(err) && err.status < 500) return previewPage(report, { error: err.message, recipients }, err.status);
        throw err;
      }
    },
  });
  ctx.admin.page({
    path: '/reports/:id/send-now',
    capability: 'manage_options',
    post: async (req) => {
      const report = await find(req);
      try {
        await run('send-report-now', { id: report.id });
      } catch (err) {
        if (isSvcError(err) && err.status < 500) return { redirect: `${url('/reports')}?error=${encodeURIComponent(err.message)}` };
        throw err;
      }
      return { redirect: `${url('/reports')}?done=sent` };
    },
  });
  ctx.admin.page({
    path: '/reports/:id/delete',
    capability: 'manage_options',
    post: async (req) => {
      await run('delete', { id: parseIdOr404(req.params.id) });
      return { redirect: `${url('/reports')}?done=deleted` };
    },
  });
}

function parseIdOr404(raw: string | undefined): number {
  try {
    return parseId(raw, 'id');
  } catch {
    throw reportNotFound(String(raw).slice(0, 40));
  }
}
