// Signing in through `heddle serve`'s one-time launch link, and a hostile file a run captured,
// in a real Chromium against the real server.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { createRunFolder, syntheticUlid } from './support/syntheticRun.mjs';

// What a hostile artifact tries: mark the page, read the cookie, call the API.
const ATTACK = "document.title='ran';fetch('/api/list_runs',{method:'POST',body:'{}'});";
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A page in a context without the suite's sign-in. */
async function signedOutPage(env) {
  const opened = await openPage(env.browser);
  await opened.context.clearCookies();
  return opened;
}

describe('signing in and run files', () => {
  const env = serverAndBrowser('login');

  it('the launch link signs one browser in, once, and leaves no credential in the address', async () => {
    const first = await signedOutPage(env);
    const second = await signedOutPage(env);
    try {
      const response = await first.page.goto(`${env.server.launchUrl}&runs`);
      assert.equal(response.status(), 200);
      assert.doesNotMatch(first.page.url(), /launch=|token=/);
      assert.match(first.page.url(), /[?&]runs/);
      await first.page.getByTestId('runs-list').waitFor();
      const cookies = await first.context.cookies();
      assert.deepEqual(
        cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.value === env.server.token]),
        [[env.server.cookieName, true, 'Strict', true]],
      );
      // Reloading keeps the session; the spent link opens nothing for another browser.
      assert.equal((await first.page.reload()).status(), 200);
      const refused = await second.page.goto(env.server.launchUrl);
      assert.equal(refused.status(), 401);
      assert.match(await refused.text(), /used already/);
      assert.deepEqual(await second.context.cookies(), []);
      assert.deepEqual(first.pageErrors, []);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it('a hostile SVG or XML a run captured runs no script, while images still show', async () => {
    const runId = syntheticUlid('SEC', 1);
    const folder = createRunFolder(env.server.home, runId, 'Hostile', 1, Date.now());
    const artifacts = join(folder, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(
      join(artifacts, 'evil.svg'),
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/><script>${ATTACK}</script></svg>`,
    );
    writeFileSync(
      join(artifacts, 'evil.xml'),
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>${ATTACK}</script></body></html>`,
    );
    writeFileSync(join(artifacts, 'shot.png'), PNG);
    const { page, context, pageErrors } = await openPage(env.browser);
    const apiCalls = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/list_runs')) apiCalls.push(request.url());
    });
    try {
      for (const name of ['evil.svg', 'evil.xml']) {
        const response = await page.goto(`${env.server.url}api/runs/${runId}/artifacts/${name}`);
        assert.equal(response.status(), 200, name);
        assert.match(response.headers()['content-security-policy'], /^sandbox; default-src 'none'/);
        // A script would have run while the document was parsed, before `load`.
        assert.notEqual(await page.title(), 'ran', `${name} ran its script`);
        assert.equal(await page.evaluate(() => document.title), '', name);
      }
      assert.deepEqual(apiCalls, []);
      // Opened directly, a PNG still displays.
      await page.goto(`${env.server.url}api/runs/${runId}/artifacts/shot.png`);
      assert.equal(await page.evaluate(() => document.images[0]?.naturalWidth), 1);
      // In the UI's own page the SVG is an image as before.
      await page.goto(env.server.url);
      const width = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return image.naturalWidth;
      }, `/api/runs/${runId}/artifacts/evil.svg`);
      assert.equal(width, 40);
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
