// A run's budget in the browser against the real `heddle serve`: the Start-run dialog shows
// "Max cost (USD)" and "Max tokens" on their own rows, filled from the graph's
// `max_cost_usd` / `max_tokens`, refuses what is not a positive number, and sends what it
// shows with start_run; the started run records the limits in force (its `run.started`
// event) and the run header shows them. A run its budget stopped is resumed from the header
// with a higher budget and finishes. LLM cost comes from a loopback stand-in for Anthropic.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { LONG, openWorkflow } from './support/editorPage.mjs';
import { startFakeAnthropic } from './support/fakeAnthropic.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';

const FLOW = `digraph Budgeted {
  graph [max_cost_usd=3, max_tokens=5000];
  start [shape=Mdiamond];
  exit [shape=Msquare];
  work [shape=parallelogram, script="echo done > done.txt"];
  start -> work -> exit;
}
`;

// Three LLM stages at $0.45 each (claude-sonnet-4-5: $3 per million input tokens, $15 per
// million output).
const SPEND = `digraph Spend {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  plan [shape=tab, model="claude-sonnet-4-5", prompt="Plan it"];
  build [shape=tab, model="claude-sonnet-4-5", prompt="Build it"];
  review [shape=tab, model="claude-sonnet-4-5", prompt="Review it"];
  start -> plan -> build -> review -> exit;
}
`;

// The server started for the suite reads its environment when it starts.
const fake = await startFakeAnthropic({ inputTokens: 100_000, outputTokens: 10_000 });
process.env.ANTHROPIC_BASE_URL = fake.baseUrl;
process.env.ANTHROPIC_API_KEY = 'test-key';
after(() => fake.close());

/** The box of the element `locator` finds, to compare rows and columns. */
async function box(locator) {
  const found = await locator.boundingBox();
  assert.ok(found !== null, 'element is visible');
  return found;
}

describe('run budget', () => {
  const env = serverAndBrowser('budget');

  test('the Start-run dialog sends a budget and the run records it', { timeout: 300_000 }, async () => {
    const flow = join(env.tempDir, 'budgeted.dot');
    writeFileSync(flow, FLOW);
    // The run config's cost limit is the first value, over the graph's $3.
    writeFileSync(join(env.tempDir, 'run.toml'), '[workflow]\ngraph = "budgeted.dot"\n[run]\nmax_cost_usd = 2\n');
    const work = join(env.tempDir, 'work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    try {
      await openWorkflow(env, page, flow, 'work');
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      const cost = dialog.getByLabel('Max cost (USD)');
      const tokens = dialog.getByLabel('Max tokens');
      await cost.waitFor({ timeout: LONG });
      assert.equal(await cost.inputValue(), '2', 'filled from the run config');
      assert.equal(await tokens.inputValue(), '5000', 'filled from the graph');

      // Each field on its own row, the labels in one column, right-aligned like the others.
      const labels = await Promise.all(['Labels', 'Work folder', 'Max cost (USD)', 'Max tokens'].map((l) => box(dialog.getByText(l, { exact: true }))));
      const fields = await Promise.all([dialog.getByLabel('Labels'), dialog.getByLabel('Work folder'), cost, tokens].map(box));
      for (let i = 1; i < fields.length; i++) {
        assert.ok(fields[i].y >= fields[i - 1].y + fields[i - 1].height, `row ${i} is below row ${i - 1}`);
        assert.ok(Math.abs(fields[i].x - fields[0].x) < 1, `field ${i} starts in the fields' column`);
        assert.ok(Math.abs(labels[i].x + labels[i].width - (labels[0].x + labels[0].width)) < 1.5, `label ${i} ends where the others do`);
        assert.ok(labels[i].x + labels[i].width <= fields[i].x, `label ${i} is left of its field`);
      }

      await dialog.getByLabel('Work folder').fill(work);
      await dialog.getByLabel('Trust this workflow and run').check();
      await cost.fill('-2');
      await tokens.fill('1.5');
      await dialog.getByText('Max cost must be a positive amount of US dollars, like 2.50.').waitFor();
      await dialog.getByText('Max tokens must be a positive whole number, like 200000.').waitFor();
      assert.equal(await dialog.getByRole('button', { name: 'Start run' }).isDisabled(), true, 'an invalid limit blocks the start');
      await page.screenshot({ path: join(screenshotDir, 'run-budget-invalid.png') });

      await cost.fill('1.25');
      await tokens.fill('');
      // Left empty, the workflow's limit still applies, and the dialog says so.
      await dialog.getByText('Empty: the workflow’s 5,000 tokens applies.').waitFor();
      await page.screenshot({ path: join(screenshotDir, 'run-budget-dialog.png') });
      await dialog.getByRole('button', { name: 'Start run' }).click();
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: LONG }).catch(async (e) => {
        await page.screenshot({ path: join(screenshotDir, 'run-budget-failed.png') });
        console.log('page errors', pageErrors);
        throw e;
      });
      const runId = await page.getByTestId('run-screen').getAttribute('data-run-id');
      // The run records the limits in force: the dialog's cost, the graph's tokens.
      await page.getByTestId('run-budget').filter({ hasText: '$1.25 · 5,000 tokens' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'run-budget-header.png') });
      const record = await env.server.call('get_run', { run_id: runId });
      const first = JSON.parse(readFileSync(join(record.folder, 'progress.jsonl'), 'utf8').split('\n')[0]);
      assert.equal(first.event, 'run.started');
      assert.equal(first.properties.max_cost_usd, 1.25);
      assert.equal(first.properties.max_tokens, 5000);
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
  test('a run its budget stopped resumes under a higher budget', { timeout: 300_000 }, async () => {
    // A folder of its own: no run config beside it.
    mkdirSync(join(env.tempDir, 'spend'), { recursive: true });
    const flow = join(env.tempDir, 'spend', 'spend.dot');
    writeFileSync(flow, SPEND);
    const work = join(env.tempDir, 'spend-work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    try {
      await openWorkflow(env, page, flow, 'plan');
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      assert.equal(await dialog.getByLabel('Max cost (USD)').inputValue(), '', 'the graph sets no budget');
      await dialog.getByLabel('Max cost (USD)').fill('0.5');
      await dialog.getByLabel('Work folder').fill(work);
      // A workflow that only asks a model is trusted without asking.
      const trust = await env.server.call('workflow_trust', { workflow_path: flow, work_dir: work });
      if (!trust.trusted) await dialog.getByLabel('Trust this workflow and run').check();
      await dialog.getByRole('button', { name: 'Start run' }).click();
      // plan: $0.45, under; build: $0.90, over: the run stops before review.
      const header = page.getByTestId('run-header');
      await page.locator('[data-testid="run-header"][data-status="cancelled"]').waitFor({ timeout: LONG });
      await header.getByText('budget exceeded', { exact: false }).waitFor();
      assert.equal(fake.requests(), 2);
      // The checkpoint browser's "Resume run…" asks for a higher budget too.
      await page.getByRole('tab', { name: 'Checkpoints' }).click();
      await page.locator('[data-testid="checkpoint-row"]').first().waitFor({ timeout: LONG });
      await page.getByTestId('checkpoint-browser').getByRole('button', { name: /Resume run/ }).click();
      const fromBrowser = page.getByRole('dialog', { name: 'Resume with a higher budget?' });
      await fromBrowser.waitFor();
      await fromBrowser.getByRole('button', { name: 'Cancel' }).click();
      await fromBrowser.waitFor({ state: 'detached' });
      await header.getByRole('button', { name: 'Resume' }).click();
      const resume = page.getByRole('dialog', { name: 'Resume with a higher budget?' });
      const cost = resume.getByLabel('Max cost (USD)');
      assert.equal(await cost.inputValue(), '0.5', 'the limit it stopped under');
      await cost.fill('0');
      await resume.getByText('Max cost must be a positive amount of US dollars, like 2.50.').waitFor();
      assert.equal(await resume.getByRole('button', { name: 'Resume' }).isDisabled(), true);
      await cost.fill('5');
      await page.screenshot({ path: join(screenshotDir, 'run-budget-resume.png') });
      await resume.getByRole('button', { name: 'Resume' }).click();
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: LONG }).catch(async (e) => {
        await page.screenshot({ path: join(screenshotDir, 'run-budget-resume-failed.png') });
        console.log('page errors', pageErrors);
        throw e;
      });
      assert.equal(fake.requests(), 3, 'only review ran on resume');
      await page.getByTestId('run-budget').filter({ hasText: '$5' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'run-budget-resumed.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
