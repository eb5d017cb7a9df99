// Run inputs in the browser against the real `heddle serve`: the Start-run dialog shows a
// field per `{{ inputs.NAME }}` the workflow uses, filled from the run.toml beside it, does
// not start while one is empty, and the run header shows the inputs the run was given.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { LONG, openWorkflow } from './support/editorPage.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';

const FLOW = `digraph Inputs {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  greet [shape=parallelogram, script="echo '{{ inputs.greeting }}, {{ inputs.name }}' > greeting.txt"];
  start -> greet -> exit;
}
`;

describe('run inputs', () => {
  const env = serverAndBrowser('inputs');

  test('the Start-run dialog asks for each input and the run header shows them', { timeout: 300_000 }, async () => {
    const flow = join(env.tempDir, 'inputs.dot');
    writeFileSync(flow, FLOW);
    writeFileSync(join(env.tempDir, 'run.toml'), '[workflow]\ngraph = "inputs.dot"\n[run.inputs]\ngreeting = "hello"\n');
    const work = join(env.tempDir, 'work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    try {
      await openWorkflow(env, page, flow, 'greet');
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      const inputs = dialog.getByTestId('run-inputs');
      await inputs.waitFor({ timeout: LONG });
      assert.equal(await dialog.getByLabel('greeting', { exact: true }).inputValue(), 'hello', 'filled from run.toml');
      assert.equal(await dialog.getByLabel('name', { exact: true }).inputValue(), '');
      await inputs.getByText('Input name needs a value.').waitFor();
      await dialog.getByLabel('Work folder').fill(work);
      await dialog.getByLabel('Trust this workflow and run').check();
      assert.equal(await dialog.getByRole('button', { name: 'Start run' }).isDisabled(), true, 'an empty input blocks the start');
      await dialog.getByLabel('name', { exact: true }).fill('world');
      await page.screenshot({ path: join(screenshotDir, 'run-inputs-dialog.png') });
      await dialog.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG }).catch(async (e) => {
        await page.screenshot({ path: join(screenshotDir, 'run-inputs-failed.png') });
        console.log('page errors', pageErrors);
        throw e;
      });
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: LONG }).catch(async (e) => {
        await page.screenshot({ path: join(screenshotDir, 'run-inputs-failed.png') });
        console.log('page errors', pageErrors);
        throw e;
      });
      const shown = await page.getByTestId('run-input').allTextContents();
      assert.deepEqual(shown, ['greeting=hello', 'name=world']);
      await page.screenshot({ path: join(screenshotDir, 'run-inputs-header.png') });
      assert.equal(readFileSync(join(work, 'greeting.txt'), 'utf8').trim(), 'hello, world');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
