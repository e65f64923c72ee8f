import fs from 'node:fs';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Set by CI: a missing Chromium fails the browser tests instead of skipping them. */
export const browserRequired = process.env.SVC_REQUIRE_BROWSER === '1';
export const browserAvailable = fs.existsSync(CHROMIUM);

/** `describe` for browser tests: skipped without Chromium, unless SVC_REQUIRE_BROWSER=1 makes them run and fail. */
export const describeBrowser: jest.Describe = browserAvailable || browserRequired ? describe : describe.skip;

export async function launchBrowser(): Promise<Browser> {
  if (!browserAvailable) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30_000 });
}

/** A phone-sized page setting: small viewport, touch, device pixel ratio 2. */
export const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

/** A browser context on `baseURL` with `timeout` for every step, and a page signed in as `login` (through the login form). */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  login: { login: string; password: string },
  options: { viewport?: { width: number; height: number }; timeout?: number; landing?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport ?? { width: 1280, height: 900 } });
  context.setDefaultTimeout(options.timeout ?? 15_000);
  const page = await context.newPage();
  await page.goto('/svc-admin/login');
  await page.getByLabel('User name').fill(login.login);
  await page.getByLabel('Password').fill(login.password);
  await Promise.all([page.waitForURL(options.landing ?? '**/svc-admin/statistics**'), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { context, page };
}
