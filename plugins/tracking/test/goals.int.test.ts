import { definePlugin, ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { renderBlockGoal } from '../goals/block-goals';
import { count, heartbeat, pageview, rows, track } from './helpers';

const caller = definePlugin({
  name: 'hook-caller',
  tier: 'free',
  register(ctx) {
    ctx.rest.route({
      method: 'POST',
      path: '/probe/order',
      capability: null,
      handler: async () => ({ recorded: await ctx.services.get('tracking')!.handleHook('order_completed', 'ignored-outside-headless') }),
    });
  },
});

const START = Date.parse('2026-04-01T12:00:00Z');

describe('goals (tracking.md §3.3 step 9, §4.1, §8.1)', () => {
  const clock = new ManualClock(START);
  let tk: TestKernel;
  let admin: ReturnType<TestKernel['client']>;
  let nonce: string;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [caller], clock });
    admin = await tk.signedIn();
    nonce = await tk.nonce(admin);
    await tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => tk.close());

  const create = async (goal: Record<string, unknown>) => {
    const res = await admin.post(`${tk.api}/goals`, { json: goal, headers: { 'x-svc-nonce': nonce } });
    expect(res.status).toBe(200);
    return res.body.data as { ID: number };
  };
  const goalRows = (goalId: number) => rows(tk, 'goal_statistics', 'goal_id = ?', [goalId]);

  it('offers CRUD to managers, reading to viewers, and refuses bad fields', async () => {
    expect((await tk.client().get(`${tk.api}/goals`)).status).toBe(401);
    const editor = await tk.signedIn('ed', 'editor-password');
    const editorNonce = await tk.nonce(editor);
    expect((await editor.get(`${tk.api}/goals`, { headers: { 'x-svc-nonce': editorNonce } })).status).toBe(200);
    expect((await editor.post(`${tk.api}/goals`, { json: { title: 'x' }, headers: { 'x-svc-nonce': editorNonce } })).status).toBe(403);

    const goal = await create({ title: 'Newsletter', type: 'clicks', status: 'active', selector: '#subscribe' });
    expect(goal).toMatchObject({ title: 'Newsletter', type: 'clicks', status: 'active', url: '*', conversion_metric: 'visitors' });
    const headers = { 'x-svc-nonce': nonce };
    const updated = await admin.request('PUT', `${tk.api}/goals/${goal.ID}`, { json: { title: 'Newsletter signup' }, headers });
    expect(updated.body.data).toMatchObject({ ID: goal.ID, title: 'Newsletter signup', selector: '#subscribe' });
    for (const bad of [{ type: 'nope' }, { title: 42 }, { page_id: -1 }, { url: 'javascript:alert(1)' }, { selector: '<img>' }, { surprise: 1 }, { type: 'hook' }, { title: 'x'.repeat(300) }]) {
      const res = await admin.post(`${tk.api}/goals`, { json: bad, headers });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await admin.post(`${tk.api}/goals`, { raw: '[1]', headers: { ...headers, 'content-type': 'application/json' } })).status).toBe(400);
    expect((await admin.request('PATCH', `${tk.api}/goals/${goal.ID}`, { json: { selector: '' }, headers })).status).toBe(400);
    expect((await admin.get(`${tk.api}/goals/999999`, { headers })).status).toBe(404);
    expect((await admin.get(`${tk.api}/goals/abc`, { headers })).status).toBe(400);
    expect((await admin.delete(`${tk.api}/goals/${goal.ID}`, { headers })).body.data).toEqual({ deleted: true });
    expect((await admin.get(`${tk.api}/goals/${goal.ID}`, { headers })).status).toBe(404);
  });

  it('refuses click and view goals without a selector, or with one that does not parse, naming every problem', async () => {
    const headers = { 'x-svc-nonce': nonce };
    const post = (goal: Record<string, unknown>) => admin.post(`${tk.api}/goals`, { json: goal, headers });
    for (const type of ['clicks', 'views']) {
      const res = await post({ title: 'No target', type });
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual({ field: 'selector' });
    }
    expect((await post({ title: 'Default type' })).body.data).toEqual({ field: 'selector' });
    for (const bad of ['#', 'a[', '>>', 'div::']) {
      const res = await post({ title: 'Broken', type: 'clicks', selector: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^selector: is not a CSS selector \(.+\), e\.g\. #signup or button\.buy$/);
    }
    const several = await post({ title: 'Many', type: 'clicks', selector: 'a[', url: 'javascript:alert(1)', conversion_metric: 'hugs' });
    expect(several.status).toBe(400);
    expect(several.body.data.problems.map((p: { field: string }) => p.field)).toEqual(['selector', 'url', 'conversion_metric']);
    expect(several.body.message).toContain('url: must be * for every page, a path that starts with / or a full address starting with https://');
    expect((await rows(tk, 'goals', 'title IN (?, ?, ?, ?)', ['No target', 'Default type', 'Broken', 'Many'])).length).toBe(0);
    expect((await post({ title: 'Fine', type: 'clicks', selector: 'button.buy > span:not(.icon)' })).status).toBe(200);
  });

  it('records active client goals on page views and heartbeats, ignoring unknown, inactive and hook goals', async () => {
    const click = await create({ title: 'Buy', type: 'clicks', status: 'active', selector: '.buy' });
    const inactive = await create({ title: 'Old', type: 'clicks', status: 'inactive', selector: '.old' });
    const hook = await create({ title: 'Hook', type: 'hook', status: 'active', hook: 'x' });
    await track(tk, pageview('https://site.example/shop/', 'buyer', { completed_goals: [click.ID, inactive.ID, hook.ID, 999999, 'x', -1] }));
    expect(await goalRows(click.ID)).toHaveLength(1);
    expect(await goalRows(inactive.ID)).toHaveLength(0);
    expect(await goalRows(hook.ID)).toHaveLength(0);
    const [session] = await rows(tk, 'sessions', 'uid = ?', ['buyer']);
    expect(session!.goal_id).toBe(click.ID);
    const view = await create({ title: 'Saw banner', type: 'views', status: 'active', selector: '.banner' });
    clock.advance(10);
    await track(tk, { ...heartbeat('https://site.example/shop/', 'buyer', 10), completed_goals: [view.ID] });
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['buyer']);
    expect((await goalRows(view.ID))[0]!.statistic_id).toBe(stat!.ID);
  });

  it('completes visits goals by page id, and by normalised URL when there is no page id', async () => {
    const byId = await create({ title: 'Pricing', type: 'visits', status: 'active', page_id: 42, url: '/elsewhere/' });
    const byUrl = await create({ title: 'Docs', type: 'visits', status: 'active', url: 'https://SITE.example/Docs/Install' });
    await track(tk, pageview('https://site.example/pricing-renamed/', 'v1', { page_id: 42 }));
    await track(tk, pageview('https://site.example/elsewhere/', 'v2', { page_id: 7 }));
    await track(tk, pageview('https://site.example/docs/install/?ref=x', 'v3'));
    await track(tk, pageview('https://other.example/docs/install/', 'v4'));
    expect((await goalRows(byId.ID)).length).toBe(1);
    expect((await goalRows(byUrl.ID)).length).toBe(1);
  });

  it('completes hook goals for the cookie visitor, and takes the uid argument only in headless mode', async () => {
    const goal = await create({ title: 'Order', type: 'hook', status: 'active', hook: 'order_completed' });
    await track(tk, pageview('https://site.example/checkout/', 'shopper'));
    const anonymous = await tk.client().post(`${tk.api}/probe/order`);
    expect(anonymous.body).toEqual({ recorded: 0 });
    const withCookie = await tk.client().post(`${tk.api}/probe/order`, { headers: { cookie: 'svc_uid=shopper' } });
    expect(withCookie.body).toEqual({ recorded: 1 });
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['shopper']);
    expect((await goalRows(goal.ID)).map((r) => r.statistic_id)).toEqual([stat!.ID]);
    expect(await tk.kernel.services.get('tracking')!.handleHook('order_completed', 'shopper')).toBe(0);
    expect(await tk.kernel.services.get('tracking')!.handleHook('unknown_hook', 'shopper')).toBe(0);
  });

  it('keeps block goals in step with their page: created, permalink synced, orphans deactivated or deleted', async () => {
    const headers = { 'x-svc-nonce': nonce };
    const sync = (body: unknown) => admin.post(`${tk.api}/goals/blocks/sync`, { json: body, headers });
    const first = await sync({ page_id: 77, permalink: '/landing/', blocks: [{ uid: 'cta-1', active: true, title: 'CTA' }, { uid: 'cta-2', active: true }] });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toMatchObject({ block_goal: 1, block_uid: 'cta-1', page_id: 77, url: '/landing/', status: 'active', selector: '[data-svc-goal="cta-1"]' });
    const cta1 = first.body.data[0].ID as number;
    const cta2 = first.body.data[1].ID as number;
    await track(tk, pageview('https://site.example/landing/', 'clicker', { completed_goals: [cta1] }));
    const second = await sync({ page_id: 77, permalink: '/new-landing/', blocks: [] });
    expect(second.body.data).toEqual([expect.objectContaining({ ID: cta1, status: 'inactive', url: '/new-landing/' })]);
    expect(await count(tk, 'goals', 'ID = ?', [cta2])).toBe(0);
    await sync({ page_id: 77, permalink: '/new-landing/', blocks: [{ uid: 'cta-1', active: true }] });
    expect((await rows(tk, 'goals', 'ID = ?', [cta1]))[0]).toMatchObject({ status: 'active', url: '/new-landing/' });
    for (const bad of [{}, { page_id: 0, permalink: '/', blocks: [] }, { page_id: 1, permalink: 'nope', blocks: [] }, { page_id: 1, permalink: '/', blocks: [{ uid: '<x>' }] }]) {
      expect((await sync(bad)).status).toBe(400);
    }
  });

  it('removes never-saved block goals in the daily cleanup', async () => {
    const unsaved = await create({ title: 'Draft block', type: 'clicks', status: 'active', block_goal: 1, block_uid: 'draft-1' });
    clock.advance(25 * 3600);
    nonce = await tk.nonce(admin);
    const fresh = await create({ title: 'Fresh block', type: 'clicks', block_goal: 1, block_uid: 'draft-2' });
    await tk.kernel.scheduler.runRecurring('svc_daily', clock.now(), true);
    expect(await count(tk, 'goals', 'ID = ?', [unsaved.ID])).toBe(0);
    expect(await count(tk, 'goals', 'ID = ?', [fresh.ID])).toBe(1);
  });

  it('adds the goal attribute to the first tag of an active goal block only', () => {
    expect(renderBlockGoal('<div class="a"><a href="#">x</a></div>', { svcGoalActive: true, svcGoalUid: 'b1' })).toBe('<div class="a" data-svc-goal="b1"><a href="#">x</a></div>');
    expect(renderBlockGoal('<p>x</p>', { svcGoalActive: false, svcGoalUid: 'b1' })).toBe('<p>x</p>');
    expect(renderBlockGoal('<p data-svc-goal="old">x</p>', { svcGoalActive: true, svcGoalUid: 'b1' })).toBe('<p data-svc-goal="old">x</p>');
    expect(renderBlockGoal('<br/>', { svcGoalActive: true, svcGoalUid: 'b2' })).toBe('<br data-svc-goal="b2"/>');
    expect(renderBlockGoal('<p>x</p>', { svcGoalActive: true, svcGoalUid: '"><script>' })).toBe('<p>x</p>');
  });

  it('returns no active goals, and still records hits, when the goals table is missing', async () => {
    const db = tk.kernel.db;
    await db.execute(`DROP TABLE ${db.quote(db.table('goal_statistics'))}`);
    await db.execute(`DROP TABLE ${db.quote(db.table('goals'))}`);
    await tk.kernel.options.set('svc_goals_version', 999);
    expect((await tk.client().get(`${tk.api}/goals/active`)).body.data).toEqual([]);
    expect((await track(tk, pageview('https://site.example/', 'after-drop'))).status).toBe(200);
    expect(await count(tk, 'statistics', 'uid = ?', ['after-drop'])).toBe(1);
  });
});

describe('goals across app nodes and in headless mode', () => {
  const clock = new ManualClock(START);
  let a: TestKernel;
  let b: TestKernel;
  beforeAll(async () => {
    a = await createTestKernel({ plugins: ['tracking'], clock, env: { SVC_HEADLESS_DOMAIN: 'https://site.example' } });
    b = await createTestKernel({ plugins: ['tracking'], clock, database: a.database, env: { SVC_HEADLESS_DOMAIN: 'https://site.example' } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('sees a goal created on another node within seconds, and takes the uid argument for hook goals', async () => {
    await track(b, pageview('https://site.example/', 'warm'));
    const admin = await a.signedIn();
    const nonce = await a.nonce(admin);
    const goal = (await admin.post(`${a.api}/goals`, { json: { title: 'Signup', type: 'hook', status: 'active', hook: 'signup' }, headers: { 'x-svc-nonce': nonce } })).body.data;
    clock.advance(6);
    await track(b, pageview('https://site.example/', 'headless-visitor'));
    expect(await b.kernel.services.get('tracking')!.handleHook('signup', 'headless-visitor')).toBe(1);
    expect(await count(a, 'goal_statistics', 'goal_id = ?', [goal.ID])).toBe(1);
  });
});
