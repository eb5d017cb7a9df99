// Desktop smoke of the runs screens: a finished run of the hello example is left in the
// app's data folder by the `heddle` CLI; the window lists it, opens it, and draws its graph
// and timeline. The screenshot goes to test-output/desktop/run-timeline.png.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, savePng, withDesktopApp } from './app-session.mjs';
import { runToTheEnd } from './heddle-cli.mjs';
import { pollUntil } from './poll.mjs';
import { count, openNewestRun } from './runs-screen.mjs';

test('the window opens a finished run and draws its timeline', { timeout: 240_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'heddle-desktop-work-'));
  try {
    await withDesktopApp(
      'run-timeline',
      [],
      async (session) => {
        await openNewestRun(session);
        const bars = await pollUntil(
          'timeline bars and coloured nodes',
          async () => {
            const shown = await count(session, '[data-testid="timeline-bar"]');
            const done = await count(session, '[data-run-status="succeeded"]');
            return shown >= 4 && done >= 4 ? shown : false;
          },
          { timeoutMs: 90_000, intervalMs: 500 },
        );
        t.diagnostic(`${bars} stage bars`);
        const status = await session.execute(`return document.querySelector('[data-testid="run-header"]')?.getAttribute('data-status') ?? null;`);
        assert.equal(status, 'success');
        const png = await session.screenshot();
        assert.ok(png.length > 8_000, `the screenshot looks blank (${png.length} bytes)`);
        t.diagnostic(`screenshot ${savePng('run-timeline', png)}`);
      },
      {
        prepareHome(home) {
          runToTheEnd(home, join(repo, 'examples', 'hello.dot'), work);
        },
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
