// Desktop check of a run's artifacts through the `heddle-run://` scheme: a finished run of the
// browser-check example (a real Chromium check) is left in the app's data folder; the window
// shows its screenshot, runs its Playwright report in the sandboxed frame (whose own image
// must load too), and saves a download into the user's Downloads folder. Screenshots go to
// test-output/desktop/run-artifacts*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, savePng, withDesktopApp } from './app-session.mjs';
import { runToTheEnd } from './heddle-cli.mjs';
import { pollUntil } from './poll.mjs';
import { click, count, openNewestRun } from './runs-screen.mjs';

/** In the page: clicks the tab whose text starts with arguments[0]; false when there is none. */
const CLICK_TAB = `
  const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.trim().startsWith(arguments[0]));
  if (!tab) return false;
  tab.click();
  return true;`;

/** In the page: true once some image matching the selector has loaded with pixels. */
const IMAGE_LOADED = `
  return [...document.querySelectorAll(arguments[0])].some((img) => img.complete && img.naturalWidth > 0);`;

/** In the page: tries one of the app's commands; 'allowed', 'refused: …', 'no ipc' or 'no answer'. */
const TRY_COMMAND = `
  const done = arguments[arguments.length - 1];
  const ipc = window.__TAURI_INTERNALS__;
  if (!ipc || typeof ipc.invoke !== 'function') return done('no ipc');
  setTimeout(() => done('no answer'), 5000);
  ipc.invoke('launch_info').then(
    () => done('allowed'),
    (error) => done('refused: ' + JSON.stringify(error)),
  );`;

/** The file the example's browser stage leaves, relative to the work folder. */
const SHOT = join('test-results', 'browser', 'home.png');

test("the window shows a run's artifacts, runs its report and saves a download", { timeout: 420_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'heddle-desktop-work-'));
  // The app's HOME: its Downloads folder is where a download must land.
  const userHome = mkdtempSync(join(tmpdir(), 'heddle-desktop-user-'));
  const downloads = join(userHome, 'Downloads');
  try {
    await withDesktopApp(
      'run-artifacts',
      [],
      async (session) => {
        await openNewestRun(session);
        await pollUntil('the Artifacts tab', async () => (await session.execute(CLICK_TAB, ['Artifacts'])) === true, {
          timeoutMs: 60_000,
          intervalMs: 500,
        });

        // The screenshot's thumbnail comes through heddle-run:// with its pixels.
        await pollUntil('the screenshot thumbnail', () => session.execute(IMAGE_LOADED, ['[data-testid="screenshot-thumb"] img']), {
          timeoutMs: 60_000,
          intervalMs: 500,
        });
        // Decoded and painted (decoding is async) before the picture is taken.
        await new Promise((done) => setTimeout(done, 500));
        t.diagnostic(`screenshot ${savePng('run-artifacts', await session.screenshot())}`);

        // The Playwright report runs in its sandboxed frame, and loads its own image.
        const [frame] = await pollUntil('the report frame', async () => {
          const found = await session.findAll('[data-testid="report-frame"]');
          return found.length > 0 ? found : false;
        });
        await session.execute(`document.querySelector('[data-testid="report-frame"]').scrollIntoView();`);
        await session.switchToFrame(frame);
        try {
          await pollUntil("the report's own image", () => session.execute(IMAGE_LOADED, ['img']), {
            timeoutMs: 60_000,
            intervalMs: 500,
          });
        } finally {
          await session.switchToTop();
        }
        t.diagnostic(`report ${savePng('run-artifacts-report', await session.screenshot())}`);

        // The report opens in a window of its own; the main window stays on the run, even
        // when a link tries to send it to the web.
        const before = await session.command('GET', '/window/handles');
        const [openLink] = await session.findAll('.report-card a[target="_blank"]');
        assert.ok(openLink, 'the report has "Open in a new tab"');
        await session.click(openLink);
        const after = await pollUntil('a second window', async () => {
          const handles = await session.command('GET', '/window/handles');
          return handles.length > before.length ? handles : false;
        });
        const main = await session.command('GET', '/window');
        await session.switchToWindow(after.find((handle) => !before.includes(handle)));
        try {
          await pollUntil("the report's image in its own window", () => session.execute(IMAGE_LOADED, ['img']), {
            timeoutMs: 60_000,
            intervalMs: 500,
          });
          // The report's scripts cannot reach the app's commands from there.
          const invoked = await session.executeAsync(TRY_COMMAND);
          assert.notEqual(invoked, 'allowed', 'a report window must not run app commands');
          t.diagnostic(`a command from the report window: ${invoked}`);
          await new Promise((done) => setTimeout(done, 500));
          t.diagnostic(`report window ${savePng('run-artifacts-report-window', await session.screenshot())}`);
        } finally {
          await session.switchToWindow(main);
        }
        // A page on a loopback server would load at once if the window were let go there.
        const elsewhere = createServer((_req, res) => res.end('<p id="elsewhere">elsewhere</p>'));
        await new Promise((listening) => elsewhere.listen(0, '127.0.0.1', listening));
        try {
          await session.execute(`location.href = arguments[0];`, [`http://127.0.0.1:${elsewhere.address().port}/`]);
          await new Promise((done) => setTimeout(done, 2000));
          assert.equal(await count(session, '[data-testid="artifacts-view"]'), 1, 'the main window must stay on the app');
        } finally {
          elsewhere.close();
        }

        // Download saves the screenshot, byte for byte, into ~/Downloads, and says so; a
        // second one never replaces the first.
        const download = '[data-testid="screenshot-thumb"][data-path$="test-results/browser/home.png"] ~ .screenshot-card__footer [aria-label="Download home.png"]';
        const savedNote = '[data-testid="download-saved"]';
        assert.equal(await click(session, download), true, 'the screenshot has a Download button');
        const saved = await pollUntil('the saved note', () => session.execute(`return document.querySelector(arguments[0])?.dataset.path ?? null;`, [savedNote]));
        assert.equal(saved, join(downloads, 'home.png'));
        const expected = readFileSync(join(work, SHOT));
        assert.ok(readFileSync(saved).equals(expected), 'the saved copy is the captured screenshot');
        assert.equal(await click(session, download), true);
        const second = await pollUntil('the second copy named', async () => {
          const path = await session.execute(`return document.querySelector(arguments[0])?.dataset.path ?? null;`, [savedNote]);
          return path !== saved ? path : false;
        });
        assert.equal(second, join(downloads, 'home (1).png'));
        assert.ok(readFileSync(join(downloads, 'home (1).png')).equals(expected));
        assert.deepEqual(readdirSync(downloads).sort(), ['home (1).png', 'home.png']);
        t.diagnostic(`downloaded to ${saved}`);
        // The window stayed on the run: a download never navigates it away.
        assert.equal(await count(session, '[data-testid="artifacts-view"]'), 1);
        await session.execute(`document.querySelector(arguments[0]).scrollIntoView({ block: 'center' });`, [savedNote]);
        await pollUntil('the saved note in view', () =>
          session.execute(`const r = document.querySelector(arguments[0]).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;`, [savedNote]),
        );
        await new Promise((done) => setTimeout(done, 300));
        t.diagnostic(`saved ${savePng('run-artifacts-saved', await session.screenshot())}`);
      },
      {
        env: { HOME: userHome },
        prepareHome(home) {
          runToTheEnd(home, join(repo, 'examples', 'browser-check.dot'), work);
        },
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(userHome, { recursive: true, force: true });
  }
});
