// Desktop smoke of the runs screens: a finished run of the hello example is left in the
// app's data folder by the `heddle` CLI; the window lists it, opens it, and draws its graph
// and timeline. The screenshot goes to test-output/desktop/run-timeline.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { repo, savePng, withDesktopApp } from './app-session.mjs';
import { pollUntil } from './poll.mjs';

/** The `heddle` CLI next to the desktop binary (the same cargo target dir). */
function heddleCli() {
  if (process.env.HEDDLE_BIN) return resolve(process.env.HEDDLE_BIN);
  const target = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, 'target');
  return join(target, 'debug', 'heddle');
}

/** In the page: clicks the first element matching the selector; false when there is none. */
const CLICK = `
  const el = document.querySelector(arguments[0]);
  if (!el) return false;
  el.click();
  return true;`;

const COUNT = `return document.querySelectorAll(arguments[0]).length;`;

test('the window opens a finished run and draws its timeline', { timeout: 240_000 }, async (t) => {
  const cli = heddleCli();
  assert.ok(existsSync(cli), `${cli} not found: build it with \`cargo build -p heddle-cli\` or set HEDDLE_BIN`);
  const work = mkdtempSync(join(tmpdir(), 'heddle-desktop-work-'));
  try {
    await withDesktopApp(
      'run-timeline',
      [],
      async (session) => {
        await pollUntil('the Runs button', async () => (await session.execute(CLICK, ['.screen-nav button:nth-child(2)'])) === true, {
          timeoutMs: 120_000,
          intervalMs: 500,
        });
        await pollUntil('the finished run in the list', async () => (await session.execute(CLICK, ['[data-testid="run-row"] .runs-table__open'])) === true, {
          timeoutMs: 60_000,
          intervalMs: 500,
        });
        const bars = await pollUntil(
          'timeline bars and coloured nodes',
          async () => {
            const shown = await session.execute(COUNT, ['[data-testid="timeline-bar"]']);
            const done = await session.execute(COUNT, ['[data-run-status="succeeded"]']);
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
          const run = spawnSync(cli, ['run', join(repo, 'examples', 'hello.dot')], {
            cwd: work,
            env: { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' },
            encoding: 'utf8',
            timeout: 120_000,
          });
          assert.equal(run.status, 0, `heddle run failed:\n${run.stdout}\n${run.stderr}`);
        },
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
