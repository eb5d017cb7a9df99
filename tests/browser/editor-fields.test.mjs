// Browser test of the inspector's richer fields against the real `heddle serve`: create a
// workflow from a template (files on disk, refusal to overwrite), preview a prompt kept in an
// @file, edit an edge condition that is checked as it is typed (refused while it does not
// parse, applied and saved once it does), and see a model stylesheet's problems with their
// line and column. Screenshots in light and dark.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { screenshotDir } from './support/paths.mjs';

import { LONG } from './support/editorPage.mjs';

/** Opens the app with no workflow, creates `name` from `template` and waits for its canvas. */
async function createFromTemplate(page, template, name) {
  await page.getByTestId('new-workflow-button').click();
  const form = page.getByTestId('new-workflow');
  await form.getByTestId(`template-${template}`).click();
  await form.getByTestId('new-workflow-name').fill(name);
  await form.getByTestId('new-workflow-create').click();
}

describe('inspector fields', () => {
  const env = serverAndBrowser('editor-fields');

  test('a new workflow from a template, its @file prompt, a checked condition and stylesheet', { timeout: 240_000 }, async () => {
    const { page, context, pageErrors } = await openPage(env.browser);
    const file = join(env.tempDir, 'feature.dot');
    try {
      // (a) New workflow from the plan-implement-test template, in the workspace folder.
      await page.goto(env.server.url);
      await page.getByTestId('new-workflow-button').click();
      const form = page.getByTestId('new-workflow');
      const option = form.getByTestId('template-plan-implement-test');
      await option.waitFor({ state: 'visible' });
      await option.click();
      assert.match(await option.textContent(), /6 nodes/);
      assert.match(await option.textContent(), /prompts\/plan\.md/);
      await form.getByTestId('new-workflow-name').fill('feature');
      await form.getByTestId('new-workflow-path').filter({ hasText: file }).waitFor();
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-new-workflow.png') });
      await form.getByTestId('new-workflow-create').click();
      await page.locator('[data-node-id="plan"]').waitFor({ state: 'visible', timeout: LONG });
      assert.ok(existsSync(file), 'the workflow file was written');
      assert.match(readFileSync(file, 'utf8'), /digraph PlanImplementTest/);
      for (const prompt of ['plan', 'implement', 'fix']) {
        assert.ok(existsSync(join(env.tempDir, 'prompts', `${prompt}.md`)), `prompts/${prompt}.md was written`);
      }
      assert.match(page.url(), /feature\.dot/);

      // (b) The plan node's prompt is a file: the inspector shows it, rendered.
      await page.locator('[data-node-id="plan"]').click();
      const details = page.getByTestId('node-details');
      const preview = details.getByTestId('reference-preview');
      await preview.getByText('Read TASK.md and the code it mentions').waitFor({ timeout: LONG });
      assert.equal(
        await preview.getByTestId('reference-path').textContent(),
        join(env.tempDir, 'prompts', 'plan.md'),
      );
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-prompt-preview.png') });

      // Editing the prompt: Write / Preview, and a missing file is named.
      await details.getByTestId('edit-attr-prompt').click();
      await details.getByLabel('prompt', { exact: true }).fill('@prompts/missing.md');
      await details.getByTestId('reference-error').filter({ hasText: 'missing.md' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-prompt-missing.png') });
      // A file longer than a preview is cut, and says so.
      writeFileSync(join(env.tempDir, 'prompts', 'big.md'), `# Big\n\n${'A line of the prompt.\n'.repeat(20_000)}`);
      await details.getByLabel('prompt', { exact: true }).fill('@prompts/big.md');
      await details.getByTestId('reference-truncated').waitFor({ timeout: LONG });
      await details.getByLabel('prompt', { exact: true }).fill('# Plan\n\nRead **TASK.md**, then `cargo test`.\n\n- short\n- reviewable');
      await details.getByRole('tab', { name: 'Preview' }).click();
      const rendered = details.getByTestId('markdown-preview');
      await rendered.locator('h1', { hasText: 'Plan' }).waitFor();
      await rendered.locator('strong', { hasText: 'TASK.md' }).waitFor();
      assert.equal(await rendered.locator('li').count(), 2);
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-markdown-preview.png') });
      await page.keyboard.press('Escape');
      await details.getByTestId('edit-attr-prompt').waitFor();
      assert.equal(await page.getByTestId('dirty-marker').count(), 0, 'cancelling changed nothing');

      // (c) An edge condition is checked as it is typed and not applied while broken.
      await page.locator('[data-edge-id="test->exit#0"]').click();
      const edge = page.getByTestId('edge-details');
      await edge.getByTestId('edit-attr-condition').click();
      const condition = edge.getByLabel('condition', { exact: true });
      await condition.fill('outcome=success &&');
      const problem = edge.getByTestId('expression-problem');
      await problem.filter({ hasText: 'col 19' }).waitFor({ timeout: LONG });
      assert.match(await problem.textContent(), /expected a key/);
      await edge.locator('.expression-field__caret').waitFor();
      await page.keyboard.press('Enter');
      await edge.getByTestId('value-refused').filter({ hasText: 'does not parse' }).waitFor();
      assert.equal(await page.getByTestId('dirty-marker').count(), 0, 'a broken condition is not applied');
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-condition-problem.png') });

      await condition.fill('outcome=success && context.tries < 3');
      await edge.getByTestId('expression-ok').waitFor({ timeout: LONG });
      await page.keyboard.press('Enter');
      await page.getByTestId('dirty-marker').waitFor({ state: 'visible', timeout: LONG });
      await edge
        .locator('.attributes-table__value', { hasText: 'outcome=success && context.tries < 3' })
        .waitFor({ timeout: LONG });
      await page.getByTestId('source-toggle').click();
      await page
        .getByTestId('source-view')
        .locator('.cm-line', { hasText: 'condition="outcome=success && context.tries < 3"' })
        .waitFor({ timeout: LONG });
      await page.getByTestId('source-toggle').click();
      await page.locator('.react-flow__pane').click();
      await page.keyboard.press('Control+s');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached', timeout: LONG });
      assert.match(readFileSync(file, 'utf8'), /condition="outcome=success && context\.tries < 3"/);

      // (d) The model stylesheet, broken on its second line.
      await page.keyboard.press('Escape');
      const settings = page.getByTestId('graph-settings');
      await settings.getByTestId('edit-attr-model_stylesheet').click();
      const stylesheet = settings.getByLabel('model_stylesheet', { exact: true });
      await stylesheet.fill('* { model: claude-sonnet-4-5; }\n.planning { reasoning_effort high; }');
      await settings.getByTestId('expression-problem').filter({ hasText: '2:13' }).waitFor({ timeout: LONG });
      await settings.locator('.expression-field__mirror mark', { hasText: 'reasoning_effort' }).waitFor();
      await page.keyboard.press('Control+Enter');
      await settings.getByTestId('value-refused').waitFor();
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-stylesheet-problem.png') });
      await stylesheet.fill('* { model: claude-sonnet-4-5; }\n.planning { reasoning_effort: high; }');
      await settings.getByTestId('expression-ok').waitFor({ timeout: LONG });
      await page.keyboard.press('Escape');
      assert.equal(await page.getByTestId('dirty-marker').count(), 0, 'cancelling the stylesheet changed nothing');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('an existing file is not overwritten, and what was typed stays', { timeout: 180_000 }, async () => {
    const taken = join(env.tempDir, 'taken.dot');
    writeFileSync(taken, 'digraph Taken { start -> exit; }\n');
    const { page, context, pageErrors } = await openPage(env.browser, { colorScheme: 'dark' });
    try {
      await page.goto(env.server.url);
      await createFromTemplate(page, 'hello', 'taken');
      const form = page.getByTestId('new-workflow');
      await form.getByTestId('new-workflow-error').filter({ hasText: 'already exists' }).waitFor({ timeout: LONG });
      assert.equal(await form.getByTestId('new-workflow-name').inputValue(), 'taken');
      assert.ok(await form.getByTestId('template-hello').locator('input').isChecked(), 'the template stays chosen');
      assert.equal(readFileSync(taken, 'utf8'), 'digraph Taken { start -> exit; }\n', 'the file is untouched');
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-new-workflow-exists-dark.png') });

      await form.getByTestId('new-workflow-name').fill('flows/greeting');
      await form.getByTestId('new-workflow-create').click();
      await page.locator('[data-node-id="greet"]').waitFor({ state: 'visible', timeout: LONG });
      assert.ok(existsSync(join(env.tempDir, 'flows', 'greeting.dot')));

      // The condition editor in dark mode.
      await page.locator('[data-edge-id="check->exit#0"]').click();
      const edge = page.getByTestId('edge-details');
      await edge.getByTestId('edit-attr-condition').click();
      await edge.getByLabel('condition', { exact: true }).fill('outcome=success && (command.output contains 3');
      await edge.getByTestId('expression-problem').filter({ hasText: /expected \)/ }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-fields-condition-problem-dark.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
