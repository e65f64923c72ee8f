/// <reference lib="dom" />
import { browserSuite, describeBrowser } from '../../../test/helpers/browser';
import { createTestKernel } from '../../../test/helpers/test-kernel';

const STEP = 15_000;

describeBrowser('the goals form in Chromium', () => {
  const b = browserSuite(() => createTestKernel({ plugins: ['tracking'] }), { device: { viewport: { width: 390, height: 844 } }, timeout: STEP });
  beforeAll(() => b.page.goto('/svc-admin/statistics/goals'));

  const errorOf = (field: string) => b.page.locator(`[data-field="${field}"] .field-error`);

  it('refuses a click goal without a selector, next to the selector field', async () => {
    await b.page.getByLabel('Title').fill('Sign-up clicks');
    await b.page.getByRole('button', { name: 'Add goal' }).click();
    await expect(errorOf('selector').textContent({ timeout: STEP })).resolves.toBe('The selector is needed for a click goal: the element to watch, e.g. #signup or button.buy.');
    expect(await b.tk.kernel.db.select(`SELECT ID FROM ${b.tk.kernel.db.quote(b.tk.kernel.db.table('goals'))}`)).toEqual([]);
  }, 30_000);

  it('shows every problem at once, each next to its field', async () => {
    await b.page.getByLabel('CSS selector (clicks, views)').fill('button[');
    await b.page.getByLabel('Page (path or *)').fill('pricing');
    await b.page.getByRole('button', { name: 'Add goal' }).click();
    await expect(errorOf('url').textContent({ timeout: STEP })).resolves.toBe('The page must be * for every page, a path that starts with / or a full address starting with https://.');
    await expect(errorOf('selector').textContent()).resolves.toMatch(/^The selector is not a CSS selector \(.+\), e\.g\. #signup or button\.buy\.$/);
    await expect(b.page.locator('.field-error').count()).resolves.toBe(2);
    expect(await b.page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
  }, 30_000);

  it('adds the goal once the fields are right, and clears the errors', async () => {
    await b.page.getByLabel('CSS selector (clicks, views)').fill('button.signup > span');
    await b.page.getByLabel('Page (path or *)').fill('/pricing/');
    await b.page.getByRole('button', { name: 'Add goal' }).click();
    await b.page.getByText('Goal "Sign-up clicks" added.').waitFor();
    await expect(b.page.locator('.field-error').count()).resolves.toBe(0);
    await expect(b.page.locator('[data-goal-list] td[data-label="Target"]').textContent()).resolves.toBe('button.signup > span on /pricing/');
  }, 30_000);
});
