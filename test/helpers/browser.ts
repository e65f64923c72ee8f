import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
