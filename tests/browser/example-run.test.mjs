// The browser-check example end to end: `heddle run` drives a real Chromium through the
// example's own scripts, and the run captures a PNG screenshot, a trace, an HTML report and
// JUnit files for the right stages. The screenshot is kept under test-output/browser/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { examplesDir, heddleBinary, screenshotDir } from './support/paths.mjs';

test('the browser-check example captures real test artifacts', { timeout: 180_000 }, () => {
  const bin = heddleBinary();
  const dir = mkdtempSync(join(tmpdir(), 'heddle-example-'));
  try {
    const home = join(dir, 'home');
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    const env = { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' };
    const run = spawnSync(bin, ['run', '--trust', join(examplesDir, 'browser-check.dot')], {
      cwd: work,
      env,
      encoding: 'utf8',
      timeout: 150_000,
    });
    assert.equal(run.status, 0, `heddle run failed:\n${run.stdout}\n${run.stderr}`);
    const [runFolder] = readdirSync(join(home, 'runs'));
    const id = runFolder.split('-')[1];
    const list = spawnSync(bin, ['artifact', 'list', id, '--json'], { env, encoding: 'utf8' });
    assert.equal(list.status, 0, list.stderr);
    const artifacts = JSON.parse(list.stdout);
    const has = (stage, kind, suffix) =>
      artifacts.some((a) => a.stage === stage && a.kind === kind && a.path.endsWith(suffix));
    assert.ok(has('browser', 'screenshot', 'test-results/browser/home.png'), list.stdout);
    assert.ok(has('browser', 'trace', 'home.trace.zip'), list.stdout);
    assert.ok(has('browser', 'playwright_report', 'playwright-report/index.html'), list.stdout);
    assert.ok(has('browser', 'junit', 'junit-browser.xml'), list.stdout);
    // The unit check failed on its first visit and passed on its second, after the fix.
    assert.ok(has('unit', 'junit', 'junit-unit.xml'), list.stdout);
    assert.ok(has('unit-visit_2', 'junit', 'junit-unit.xml'), list.stdout);
    const shot = artifacts.find((a) => a.path.endsWith('test-results/browser/home.png'));
    assert.equal(shot.media_type, 'image/png');
    assert.ok(shot.size > 1000, `a ${shot.size}-byte screenshot is too small to be real`);
    mkdirSync(screenshotDir, { recursive: true });
    copyFileSync(
      join(home, 'runs', runFolder, 'artifacts', shot.path),
      join(screenshotDir, 'browser-check-home.png'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
