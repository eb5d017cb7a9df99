// Launches Debian's Chromium through playwright-core (resolved from ui/package.json, which
// lists it as a devDependency), so no browser download is needed.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

const requireFromUi = createRequire(join(repoRoot, 'ui', 'package.json'));
const { chromium } = requireFromUi('playwright-core');

export async function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page with a desktop-sized viewport that records uncaught page errors. */
export async function openPage(browser, { colorScheme = 'light' } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    colorScheme,
  });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  page.setDefaultTimeout(30_000);
  return { context, page, pageErrors };
}
