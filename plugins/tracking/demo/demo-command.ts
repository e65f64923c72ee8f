import { randomBytes } from 'node:crypto';
import { ANONYMOUS, type CliIO, parseCommandArgs, type PluginContext, redactUrl, UsageError } from '../../../core';
import type { Tracker } from '../collect/tracker';
import type { GoalStore } from '../goals/goal-store';
import type { SvcDemoVisit } from '../hooks';
import { DemoMarks } from './demo-marks';
import { DEMO_404S, DEMO_AGENTS, DEMO_PAGES, DEMO_REFERRERS, DEMO_SEARCHES, between, publicIp, seeded, weighted } from './demo-traffic';

const DAY = 86_400;
/** Visitors simulated at once. */
const PARALLEL = 20;

interface Visitor {
  uid: string;
  ip: string;
  ua: string;
  screen: string;
}

function count(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
  return Number(raw);
}

/** Demo goals, created (and marked as demo rows) once when the site has none. */
async function demoGoals(goals: GoalStore, marks: DemoMarks, siteId: number): Promise<{ pricing: number; signup: number }> {
  const existing = await goals.list(siteId);
  const find = (title: string) => existing.find((g) => g.title === title)?.ID;
  const created = async (goal: Promise<{ ID: number }>) => {
    const { ID } = await goal;
    await marks.mark('goal', [ID]);
    return ID;
  };
  const pricing = find('Viewed pricing') ?? (await created(goals.create(siteId, { title: 'Viewed pricing', type: 'visits', status: 'active', url: '/pricing/', page_id: 2 })));
  const signup = find('Clicked sign up') ?? (await created(goals.create(siteId, { title: 'Clicked sign up', type: 'clicks', status: 'active', selector: '#signup' })));
  return { pricing, signup };
}

/** `svc demo --remove`: the marked demo rows of every plugin go, and the days they were on are folded again. */
async function removeDemo(ctx: PluginContext, marks: DemoMarks, io: CliIO): Promise<number> {
  const removal = await marks.remove((done, total) => io.progress(done, total, 'demo sessions removed'));
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const report = await ctx.hooks.applyFilters('svc_demo_removal', [
    `Removed ${count(removal.sessions, 'demo session')} with ${count(removal.pageviews, 'page view')}${removal.goals ? ` and ${count(removal.goals, 'demo goal')}` : ''}.`,
  ]);
  if (removal.spans.length > 0) {
    let days = 0;
    for (const span of removal.spans) days += await ctx.statistics.refold(span.siteId, span.from, span.to, (done, total) => io.progress(done, total, 'days folded again'));
    report.push(`Folded the statistics of ${days} day${days === 1 ? '' : 's'} again.`);
  }
  for (const line of report) io.out(line);
  return 0;
}

/**
 * `svc demo [--days N] [--visitors N]`: `--visitors` visits per day over the
 * last days (about 30 % of them by a visitor who came before), each a run of
 * page views and heartbeats sent through the tracking pipeline with its own
 * times, IP, device and referrer, plus 404s, site searches and goal
 * completions. Progress and summary count visits, the summary also the
 * distinct visitors and page views. Fires `svc_demo_generated`.
 */
export function registerDemo(ctx: PluginContext, tracker: Tracker, goals: GoalStore): void {
  ctx.hooks.declareAction('svc_demo_generated', ['visits']);
  ctx.hooks.declareFilter('svc_demo_removal', ['report']);
  const marks = new DemoMarks(ctx.db, goals);
  ctx.cli.command({
    name: 'demo',
    summary: 'Generate realistic traffic through the tracking pipeline into this database, or remove it again',
    usage: '[--days N] [--visitors N] [--seed N] [--site ID] | --remove  (--visitors: visits per day; defaults 14 and 40; --site: id or domain, default the first site)',
    async run(args: string[], io: CliIO): Promise<number> {
      const { values } = parseCommandArgs(args, ['days', 'visitors', 'seed', 'site'], { min: 0, max: 0 }, ['remove']);
      if (values.remove) {
        if (values.days || values.visitors || values.seed || values.site) throw new UsageError('--remove takes no other option');
        return removeDemo(ctx, marks, io);
      }
      const days = count(values.days, 'days', 14, 366);
      const perDay = count(values.visitors, 'visitors', 40, 5_000);
      const random = seeded(values.seed ? count(values.seed, 'seed', 1, 2 ** 31) : randomBytes(4).readUInt32BE(0));
      io.err(`svc demo writes into the site's own database (${redactUrl(ctx.config.databaseUrl)}); \`svc demo --remove\` deletes exactly what it generated.`);
      const siteId = (
        await ctx.sites.resolve(values.site).catch(() => {
          throw new UsageError(`--site: no site ${String(values.site)}`);
        })
      ).id;
      const goalIds = await demoGoals(goals, marks, siteId);
      const sessions = new Set<number>();
      const site = new URL(ctx.config.baseUrl).origin;
      const returning: Visitor[] = [];
      const visits: SvcDemoVisit[] = [];
      const today = Math.floor(ctx.clock.unix() / DAY) * DAY;
      const total = days * perDay;
      let done = 0;

      const send = (visitor: Visitor, payload: Record<string, unknown>, time: number) =>
        tracker.track(payload, { headers: { 'user-agent': visitor.ua }, remoteAddress: visitor.ip, principal: ANONYMOUS }, time);

      const simulate = async (visitor: Visitor, start: number) => {
        const referrer = weighted(random, DEMO_REFERRERS).url;
        let time = start;
        for (let n = between(random, 1, 5), i = 0; i < n; i++) {
          const roll = random();
          const page = weighted(random, DEMO_PAGES);
          const notFound = roll < 0.05;
          const search = !notFound && roll < 0.1 ? DEMO_SEARCHES[between(random, 0, DEMO_SEARCHES.length - 1)]! : '';
          const path = notFound ? DEMO_404S[between(random, 0, DEMO_404S.length - 1)]! : search ? `/?s=${encodeURIComponent(search)}` : page.path;
          const url = `${site}${path}`;
          const result = await send(
            visitor,
            {
              url,
              site: siteId,
              uid: visitor.uid,
              fingerprint: false,
              user_agent: visitor.ua,
              screen: visitor.screen,
              referrer_url: i === 0 ? referrer : '',
              time_on_page: 0,
              completed_goals: page.path === '/pricing/' && random() < 0.3 ? [goalIds.signup] : [],
              page_id: notFound || search ? 0 : page.id,
              page_type: notFound ? '404' : search ? 'search' : page.type,
              search_term: search,
            },
            time,
          );
          if (result.recorded) {
            visits.push({ uid: visitor.uid, time, url, session: result.sessionId });
            sessions.add(result.sessionId);
          }
          for (let beats = between(random, 0, 3), b = 0; b < beats; b++) {
            const seconds = between(random, 5, 60);
            time += seconds;
            await send(visitor, { url, site: siteId, uid: visitor.uid, fingerprint: false, user_agent: '', time_on_page: seconds }, time);
          }
          time += between(random, 5, 120);
        }
      };

      for (let d = days - 1; d >= 0; d--) {
        const dayStart = today - d * DAY;
        const latest = d === 0 ? Math.max(dayStart, ctx.clock.unix() - 600) : dayStart + DAY - 900;
        const plans = Array.from({ length: perDay }, () => {
          const back = returning.length > 0 && random() < 0.3;
          const agent = weighted(random, DEMO_AGENTS);
          const visitor = back ? returning[between(random, 0, returning.length - 1)]! : { uid: randomBytes(8).toString('hex'), ip: publicIp(random), ua: agent.ua, screen: agent.screen };
          if (!back) returning.push(visitor);
          return { visitor, start: between(random, dayStart, Math.max(dayStart, latest)) };
        });
        plans.sort((a, b) => a.start - b.start);
        for (let i = 0; i < plans.length; i += PARALLEL) {
          const chunk = plans.slice(i, i + PARALLEL);
          const seen = new Set<string>();
          // A visitor twice in one chunk would interleave two sessions; run those later.
          await Promise.all(chunk.filter((p) => !seen.has(p.visitor.uid) && seen.add(p.visitor.uid)).map((p) => simulate(p.visitor, p.start)));
          for (const p of chunk.filter((p, n) => chunk.findIndex((q) => q.visitor.uid === p.visitor.uid) !== n)) await simulate(p.visitor, p.start);
          await marks.mark('session', sessions);
          sessions.clear();
          done += chunk.length;
          io.progress(done, total, 'visits');
        }
      }
      await ctx.hooks.doAction('svc_demo_generated', visits);
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      io.out(`Generated ${plural(total, 'visit')} from ${plural(returning.length, 'visitor')} (${plural(visits.length, 'page view')}) over ${plural(days, 'day')}.`);
      return 0;
    },
  });
}
