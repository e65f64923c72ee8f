import fs from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core';

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

/** What a browser test's kernel offers the page: its address and administrator, and its end. */
interface SuiteKernel {
  url: string;
  admin: { login: string; password: string };
  close(): Promise<void>;
}

/** The kernel and the Chromium page of a browser test's describe block, there from its `beforeAll` on. */
export interface BrowserSuite<K extends SuiteKernel> {
  readonly tk: K;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors of the page (and its console errors with `consoleErrors`), from when it is ready. */
  readonly problems: string[];
}

export interface BrowserSuiteOptions {
  /** Sign in as the kernel's administrator through the login form (default true). */
  signIn?: boolean;
  /** Context settings such as `PHONE`; default a 1280 x 900 window. */
  device?: BrowserContextOptions;
  /** Every step's timeout (default 15 s). */
  timeout?: number;
  /** Where signing in lands (default the statistics tab). */
  landing?: string;
  consoleErrors?: boolean;
  /** How long starting may take (default 60 s). */
  startMs?: number;
}

/** A page on the kernel's address: signed in through the login form, or fresh. */
async function openPage(browser: Browser, tk: SuiteKernel, options: BrowserSuiteOptions): Promise<{ context: BrowserContext; page: Page }> {
  const timeout = options.timeout ?? 15_000;
  const viewport = options.device?.viewport ?? { width: 1280, height: 900 };
  if (options.signIn ?? true) return signedInPage(browser, tk.url, tk.admin, { viewport, timeout, ...(options.landing ? { landing: options.landing } : {}) });
  const context = await browser.newContext({ ...options.device, viewport, baseURL: tk.url });
  context.setDefaultTimeout(timeout);
  context.setDefaultNavigationTimeout(timeout);
  return { context, page: await context.newPage() };
}

/**
 * Registers the `beforeAll` that starts the kernel (`start`), Chromium and
 * one page on the kernel, and the `afterAll` that closes them all; the
 * returned fields are there from that `beforeAll` on.
 */
export function browserSuite<K extends SuiteKernel>(start: () => Promise<K>, options: BrowserSuiteOptions = {}): BrowserSuite<K> {
  let tk: K | undefined;
  let browser: Browser | undefined;
  let opened: { context: BrowserContext; page: Page } | undefined;
  const problems: string[] = [];
  const ready = () => {
    if (!tk || !browser || !opened) throw new Error('the browser suite starts in beforeAll');
    return { tk, browser, ...opened };
  };
  beforeAll(async () => {
    tk = await start();
    browser = await launchBrowser();
    opened = await openPage(browser, tk, options);
    if (options.consoleErrors) opened.page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    opened.page.on('pageerror', (e) => problems.push(e.message));
  }, options.startMs ?? 60_000);
  afterAll(async () => {
    await opened?.context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await tk?.close();
  });
  return {
    get tk() {
      return ready().tk;
    },
    get browser() {
      return ready().browser;
    },
    get context() {
      return ready().context;
    },
    get page() {
      return ready().page;
    },
    problems,
  };
}
