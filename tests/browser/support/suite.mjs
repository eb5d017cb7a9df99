// The set-up every browser suite shares: a temp folder, the real `heddle serve` and Chromium,
// started before the suite's tests and torn down after them.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { launchChromium } from './chromium.mjs';
import { startHeddleServer } from './heddleServer.mjs';
import { requireBuilt, screenshotDir, uiDist } from './paths.mjs';

/**
 * Registers the suite's before/after hooks; returns an object whose `server`, `browser` and
 * `tempDir` are set once the suite starts; the browser's contexts are signed in. The server's workspace is `workspace` (default:
 * the temp folder).
 */
export function serverAndBrowser(prefix, { workspace } = {}) {
  const env = { server: null, browser: null, tempDir: null };
  before(async () => {
    const bin = requireBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    env.tempDir = mkdtempSync(join(tmpdir(), `heddle-${prefix}-`));
    env.server = await startHeddleServer({ bin, workspace: workspace ?? env.tempDir, uiDir: uiDist });
    env.browser = await launchChromium();
    // Every page the suite opens is signed in, as if it had opened the one-time launch link
    // (login.test.mjs opens that link itself).
    const newContext = env.browser.newContext.bind(env.browser);
    env.browser.newContext = async (options) => {
      const context = await newContext(options);
      await env.server.signIn(context);
      return context;
    };
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
    if (env.tempDir) rmSync(env.tempDir, { recursive: true, force: true });
  });
  return env;
}
