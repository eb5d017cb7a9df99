// The runs screens against the real `heddle serve`, on the browser-check example (real
// commands, a real Chromium check, real artifacts): start it from the editor, watch it
// finish, read a stage, a checkpoint's diff and the screenshot, roll back, continue, and
// compare the screenshot of both timelines. Screenshots of every view go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { examplesDir, screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';

const LONG = 60_000;
const RUN_TIMEOUT = 180_000;

describe('runs', () => {
  const env = serverAndBrowser('runs', { workspace: examplesDir });

  test('start the browser-check example, inspect it, roll back, continue and compare', { timeout: 600_000 }, async () => {
    const work = join(env.tempDir, 'work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    const shot = (name) => page.screenshot({ path: join(screenshotDir, `runs-${name}.png`) });
    try {
      const url = new URL(env.server.url);
      url.searchParams.set('file', join(examplesDir, 'browser-check.dot'));
      await page.goto(url.toString());
      await page.locator('[data-node-id="unit"]').waitFor({ timeout: LONG });

      // Start it from the editor, in a work folder of the test's own.
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      await dialog.getByLabel('Work folder').fill(work);
      await dialog.getByLabel('Labels').fill('suite=browser');
      // Not trusted on this machine yet: the dialog lists what it will run and asks.
      const summary = dialog.getByTestId('trust-summary');
      await summary.waitFor({ timeout: LONG });
      await summary.getByText('Runs the shell script of “setup”').waitFor();
      await page.screenshot({ path: join(screenshotDir, 'runs-trust.png') });
      assert.equal(await dialog.getByRole('button', { name: 'Start run' }).isDisabled(), true, 'Start run waits for consent');
      await summary.getByLabel('Trust this workflow and run').check();
      await dialog.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG });
      assert.match(page.url(), /[?&]run=/);
      await page.locator('[data-node-id="setup"][data-run-status]').waitFor({ timeout: LONG });
      await shot('live');

      // It finishes; the graph shows how each node ended and why each edge was taken.
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: RUN_TIMEOUT });
      await page.locator('[data-node-id="browser"][data-run-status="succeeded"]').waitFor({ timeout: LONG });
      assert.equal(await page.locator('[data-node-id="unit"]').getAttribute('data-run-status'), 'succeeded');
      assert.ok((await page.locator('[data-taken-reason="condition"]').count()) >= 2, 'the conditional edges taken are marked');
      await page.locator('[data-testid="timeline-bar"]').first().waitFor();
      await shot('finished');

      // The first unit visit failed: its detail says why, where the run went, and its output.
      await page.locator('[data-testid="timeline-bar"][data-node="unit"][data-visit="1"]').click();
      const detail = page.getByTestId('stage-detail');
      await detail.waitFor();
      assert.equal(await detail.getAttribute('data-node'), 'unit');
      await assert.doesNotReject(detail.getByTestId('stage-status').filter({ hasText: 'fail' }).waitFor());
      await detail.getByTestId('stage-route').filter({ hasText: 'fix' }).waitFor();
      await detail.getByRole('tab', { name: 'stdout' }).click();
      await detail.getByTestId('log-view').waitFor();
      await shot('stage');
      // The fix stage's diff.patch, as files and hunks the API read from it.
      await page.locator('[data-testid="timeline-bar"][data-node="fix"]').first().click();
      await page.locator('[data-testid="stage-detail"][data-node="fix"]').waitFor();
      await detail.getByRole('tab', { name: 'Diff' }).click();
      await detail.locator('[data-testid="diff-file"] .diff-line.is-add').first().waitFor({ timeout: LONG });
      await detail.getByText('Hello, Heddle').first().waitFor();
      await shot('stage-diff');

      // Scrubbing the timeline shows the graph as it was then.
      const axis = page.getByTestId('run-timeline').getByRole('slider');
      const box = await axis.boundingBox();
      assert.ok(box !== null, 'the timeline axis is drawn');
      await page.mouse.click(box.x + 40, box.y + box.height / 2);
      await page.getByTestId('scrub-note').waitFor();
      await page.locator('[data-node-id="browser"][data-run-status="pending"]').waitFor();
      await shot('scrubbed');
      // Just after the first `unit` stage, the note lists the context its checkpoint saved.
      const unitBar = await page.locator('[data-testid="timeline-bar"][data-node="unit"]').first().boundingBox();
      assert.ok(unitBar !== null, 'the unit stage has a bar');
      await page.mouse.click(unitBar.x + unitBar.width + 3, box.y + box.height / 2);
      await page.getByTestId('scrub-note').getByText('last checkpoint after').waitFor();
      const scrubContext = page.getByTestId('scrub-note').getByTestId('checkpoint-context-values');
      await scrubContext.waitFor();
      assert.ok((await scrubContext.locator('dt').count()) > 0, 'the scrubbed checkpoint has context values');
      await shot('scrubbed-context');
      await page.getByTestId('scrub-note').getByRole('button', { name: 'Back to now' }).click();

      // A checkpoint: its diff against the one before shows the fix.
      await page.getByRole('tab', { name: 'Checkpoints' }).click();
      const fixRow = page.locator('[data-testid="checkpoint-row"][data-node="fix"]');
      await fixRow.click();
      await page.getByTestId('checkpoint-browser').getByRole('tab', { name: 'Diff' }).click();
      await page.getByText('Hello, Heddle').first().waitFor();
      await shot('checkpoint-diff');
      // And the context the run had saved by then.
      await page.getByTestId('checkpoint-browser').getByRole('tab', { name: 'Context' }).click();
      await page.getByTestId('checkpoint-context-values').getByText('command.output').first().waitFor();
      await shot('checkpoint-context');

      // The screenshot the browser stage captured, in the lightbox.
      await page.getByRole('tab', { name: /^Artifacts/ }).click();
      const thumbs = page.locator('[data-testid="screenshot-thumb"]');
      await thumbs.first().waitFor();
      await thumbs.first().click();
      await page.getByTestId('lightbox').waitFor();
      await shot('lightbox');
      await page.keyboard.press('Escape');
      await page.getByTestId('lightbox').waitFor({ state: 'detached' });

      // The JUnit files as the API parsed them: the first unit visit's failure is open.
      await page.locator('[data-testid="junit-table"][data-state="ready"]').first().waitFor({ timeout: LONG });
      const failedReport = page.locator('[data-testid="junit-table"][data-outcome="failed"]').first();
      await failedReport.waitFor();
      await failedReport.locator('tr.junit-case.is-failed').first().waitFor();
      await failedReport.locator('.junit-case__details').first().waitFor();
      assert.ok((await page.locator('[data-testid="junit-table"][data-outcome="passed"]').count()) >= 1, 'the passing visit reads as passed');
      await failedReport.scrollIntoViewIfNeeded();
      await shot('junit');

      // The Playwright report runs in a sandboxed frame, and the image it loads itself shows.
      const report = page.frameLocator('[data-testid="report-frame"]');
      const reportImage = report.locator('img');
      await reportImage.waitFor({ timeout: LONG });
      let loaded = false;
      for (let i = 0; i < 50 && !loaded; i++) {
        loaded = await reportImage.evaluate((img) => img.complete && img.naturalWidth > 0);
        if (!loaded) await new Promise((done) => setTimeout(done, 200));
      }
      assert.ok(loaded, "the report's own image loads in its sandboxed frame");
      await page.getByTestId('report-frame').scrollIntoViewIfNeeded();
      await shot('report');

      // Roll back to the checkpoint after the unit check passed, then continue from there.
      await page.getByRole('tab', { name: 'Checkpoints' }).click();
      const passedRow = page.locator('[data-testid="checkpoint-row"][data-node="unit"]').first();
      await passedRow.waitFor();
      const unitRows = page.locator('[data-testid="checkpoint-row"][data-node="unit"]');
      // Newest first: the first unit row is the visit that passed.
      await unitRows.first().click();
      await page.getByTestId('checkpoint-browser').getByRole('button', { name: /Roll back/ }).first().click();
      const confirmRollback = page.getByRole('dialog');
      await confirmRollback.waitFor();
      await shot('rollback-confirm');
      await confirmRollback.getByRole('button', { name: 'Roll back', exact: true }).click();
      // The report of what it did: files written and deleted, where the state before was kept.
      await page.getByTestId('rollback-report').waitFor({ timeout: LONG });
      await shot('rollback-report');
      await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).last().click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await shot('rolled-back');
      await page.getByTestId('checkpoint-browser').getByRole('button', { name: /Resume/ }).first().click();
      const confirmResume = page.getByRole('dialog');
      await confirmResume.waitFor();
      await confirmResume.getByRole('button', { name: 'Resume', exact: true }).click();

      // The new timeline beside the old one, once the continued run reached its exit.
      await page.locator('[data-testid="checkpoint-row"][data-timeline="2"][data-node="exit"]').waitFor({ timeout: RUN_TIMEOUT });
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: LONG });
      assert.ok((await page.locator('[data-testid="checkpoint-row"][data-timeline="1"]').count()) >= 7);
      await shot('two-timelines');
      await page.getByRole('tab', { name: 'Graph & timeline' }).click();
      await page.locator('[data-testid="timeline-bar"][data-node="browser"]').nth(1).waitFor({ timeout: LONG });

      // Both runs of the browser check left a screenshot: compare them.
      await page.getByRole('tab', { name: /^Artifacts/ }).click();
      await page.locator('[data-testid="screenshot-thumb"][data-path$="test-results/browser/home.png"]').nth(1).waitFor({ timeout: LONG });
      await page.getByRole('button', { name: /Compare/ }).first().click();
      const compare = page.getByTestId('screenshot-compare');
      await compare.waitFor();
      await compare.getByRole('button', { name: 'Slider' }).click();
      await shot('compare-slider');
      await compare.getByRole('button', { name: 'Difference' }).click();
      await page.getByTestId('pixel-diff-summary').waitFor({ timeout: LONG });
      await shot('compare-difference');
      await page.keyboard.press('Escape');
      await compare.waitFor({ state: 'detached' });

      // The runs list finds it by its label.
      await page.getByRole('button', { name: 'Runs', exact: true }).click();
      await page.getByLabel('Search runs').fill('suite=browser');
      await page.locator('[data-testid="run-row"][data-status="success"]').first().waitFor();
      await shot('list');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('a human gate waits in the dock and its accelerator key answers it', { timeout: 300_000 }, async () => {
    const work = join(env.tempDir, 'gate-work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    try {
      const url = new URL(env.server.url);
      url.searchParams.set('file', join(examplesDir, 'review-gate.dot'));
      await page.goto(url.toString());
      await page.locator('[data-node-id="review"]').waitFor({ timeout: LONG });
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      await dialog.getByLabel('Work folder').fill(work);
      // The draft is an LLM stage: simulated, so no API key is needed.
      await dialog.getByLabel(/Dry run/).check();
      await dialog.getByLabel('Trust this workflow and run').check();
      await dialog.getByRole('button', { name: 'Start run' }).click();

      const dock = page.getByTestId('gate-dock');
      await dock.waitFor({ timeout: RUN_TIMEOUT });
      await dock.getByRole('button', { name: 'S Skip release', exact: true }).waitFor();
      await page.locator('[data-node-id="review"][data-run-status="waiting"]').waitFor();
      await page.getByTestId('run-notice').filter({ hasText: 'waiting for you' }).waitFor();
      await page.screenshot({ path: join(screenshotDir, 'runs-gate.png') });
      // The accelerator key answers it: Skip release goes straight to the exit.
      await page.keyboard.press('s');
      await dock.waitFor({ state: 'detached', timeout: LONG });
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: RUN_TIMEOUT });
      assert.equal(await page.locator('[data-node-id="publish"]').getAttribute('data-run-status'), 'pending');
      assert.equal(await page.locator('[data-node-id="exit"]').getAttribute('data-run-status'), 'succeeded');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});

