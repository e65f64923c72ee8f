/// <reference lib="dom" />
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const STEP = 15_000;

describeBrowser('the custom period of a dashboard', () => {
  const b = browserSuite(() => createTestKernel({ plugins: ['tracking'] }), { timeout: STEP });

  it('refuses a reversed range, then applies the corrected one without a reload', async () => {
    await b.page.locator('select[name=preset]').selectOption('custom');
    await b.page.locator('input[name=date_start]').fill('2026-03-20');
    await b.page.locator('input[name=date_end]').fill('2026-03-10');
    await b.page.getByRole('button', { name: 'Apply' }).click();
    await expect(b.page.locator('input[name=date_start]').evaluate((input: HTMLInputElement) => input.validationMessage)).resolves.toBe('The start must not be after the end.');
    expect(new URL(b.page.url()).searchParams.get('range')).not.toBe('custom');

    await b.page.locator('input[name=date_start]').fill('2026-03-01');
    await b.page.getByRole('button', { name: 'Apply' }).click();
    await b.page.waitForFunction(() => new URL(location.href).searchParams.get('date_start') === '2026-03-01', undefined, { timeout: STEP });
    expect(new URL(b.page.url()).searchParams.get('date_end')).toBe('2026-03-10');
    await expect(b.page.locator('[data-period]').textContent()).resolves.toBe('2026-03-01 – 2026-03-10');

    await b.page.locator('input[name=date_end]').fill('2026-02-01');
    await b.page.getByRole('button', { name: 'Apply' }).click();
    await b.page.locator('input[name=date_end]').fill('2026-03-31');
    await b.page.getByRole('button', { name: 'Apply' }).click();
    await b.page.waitForFunction(() => new URL(location.href).searchParams.get('date_end') === '2026-03-31', undefined, { timeout: STEP });
  }, 40_000);
});
