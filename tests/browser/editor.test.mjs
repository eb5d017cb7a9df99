// Browser test of the editor against the real `heddle serve`: change a label, add an
// attribute (a bad value is refused with the field's own message), rename a node, undo and
// redo, add a node from the palette, set its prompt, connect it by dragging, delete a node,
// see a second exit refused by the API, save; the file on disk differs from the original only on the edited lines,
// every comment intact, and it still validates.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { serverAndBrowser } from './support/suite.mjs';
import { screenshotDir } from './support/paths.mjs';
import { LONG, openCopyOfHello, settledBox } from './support/editorPage.mjs';

/** The lines only in `a` (removed) and only in `b` (added), by longest common subsequence. */
function lineDiff(a, b) {
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const removed = [];
  const added = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) removed.push(a[i++]);
    else added.push(b[j++]);
  }
  return { removed: [...removed, ...a.slice(i)], added: [...added, ...b.slice(j)] };
}

describe('workflow editor', () => {
  const env = serverAndBrowser('editor');

  test('edits in the inspector are saved as minimal changes to the file', { timeout: 180_000 }, async () => {
    const { file, original, page, context, pageErrors } = await openCopyOfHello(env, 'hello.dot');
    try {
      assert.equal(await page.getByTestId('dirty-marker').count(), 0, 'clean after opening');

      // Change a label.
      await page.locator('[data-node-id="greet"]').click();
      const details = page.getByTestId('node-details');
      await details.waitFor({ state: 'visible' });
      await details.getByTestId('edit-attr-label').click();
      await details.getByLabel('label', { exact: true }).fill('Say hello');
      await page.keyboard.press('Enter');
      await page.getByTestId('dirty-marker').waitFor({ state: 'visible' });
      await page
        .locator('[data-node-id="greet"] .handler-node__label', { hasText: 'Say hello' })
        .waitFor({ timeout: LONG });

      // Add an attribute: a value the field refuses, then one it accepts.
      await details.getByLabel('New attribute name').fill('timeout');
      await details.getByTestId('edit-attr-timeout').click();
      await details.getByLabel('timeout', { exact: true }).fill('soon');
      await page.keyboard.press('Enter');
      await details.getByRole('alert').waitFor({ state: 'visible' });
      await details.getByLabel('timeout', { exact: true }).fill('90s');
      await page.keyboard.press('Enter');
      await details.locator('.attributes-table__value', { hasText: '90s' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-inspector.png') });

      // Rename another node; its edges follow and the details follow the new id.
      await page.locator('[data-node-id="check"]').click();
      await details.getByTestId('details-node-id').filter({ hasText: 'check' }).waitFor();
      await details.getByTestId('edit-attr-id').click();
      await details.getByLabel('id', { exact: true }).fill('verify');
      await page.keyboard.press('Enter');
      await details.getByTestId('details-node-id').filter({ hasText: 'verify' }).waitFor({ timeout: LONG });
      await page.locator('[data-node-id="verify"]').waitFor({ state: 'visible', timeout: LONG });

      // Undo brings the old id back; redo repeats the rename.
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.locator('[data-node-id="check"]').waitFor({ state: 'visible', timeout: LONG });
      await page.getByRole('button', { name: 'Redo' }).click();
      await page.locator('[data-node-id="verify"]').waitFor({ state: 'visible', timeout: LONG });

      // Add an agent from the palette, give it a prompt, and connect greet to it by dragging.
      await page.getByTestId('palette-agent').click();
      await details.getByTestId('details-node-id').filter({ hasText: 'agent' }).waitFor({ timeout: LONG });
      await details.getByLabel('New attribute name').fill('prompt');
      await details.getByTestId('edit-attr-prompt').click();
      await details.getByLabel('prompt', { exact: true }).fill('Summarise the greeting');
      await page.keyboard.press('Control+Enter');
      await details.locator('.attributes-table__value', { hasText: 'Summarise the greeting' }).waitFor();
      const edgesBefore = await page.locator('.react-flow__edge').count();
      await page.locator('[data-node-id="greet"]').hover();
      const to = await settledBox(page.locator('[data-node-id="agent"]'));
      const from = await settledBox(page.locator('[data-node-id="greet"] .react-flow__handle.source'));
      assert.ok(from && to, 'both nodes are on screen');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      // Drop near the new node's in-handle (its left edge), moving in steps like a hand would.
      await page.mouse.move(to.x + 20, to.y + to.height / 2, { steps: 12 });
      await page.mouse.up();
      await page.waitForFunction(
        (n) => document.querySelectorAll('.react-flow__edge').length === n,
        edgesBefore + 1,
        { timeout: LONG },
      );

      // A node added by mistake goes again with Delete.
      await page.getByTestId('palette-wait').click();
      await page.locator('[data-node-id="wait"]').waitFor({ state: 'visible', timeout: LONG });
      await page.locator('.react-flow__pane').click();
      await page.locator('[data-node-id="wait"]').click();
      await page.keyboard.press('Delete');
      await page.locator('[data-node-id="wait"]').waitFor({ state: 'detached', timeout: LONG });
      // The whole graph is in view, so no minimap covers its corner (it shows once zoomed in).
      await page.waitForFunction(() => document.querySelector('.react-flow__minimap') === null);
      await page.screenshot({ path: join(screenshotDir, 'editor-canvas.png') });

      // The API refuses a second exit and says which node is the exit; nothing changes.
      const nodesBefore = await page.locator('.react-flow__node').count();
      await page.getByTestId('palette-exit').click();
      const refused = page.getByTestId('edit-error');
      await refused.filter({ hasText: 'already has an exit, `exit`' }).waitFor({ timeout: LONG });
      assert.equal(await page.locator('.react-flow__node').count(), nodesBefore, 'no node was added');
      await refused.getByRole('button', { name: 'Dismiss' }).click();

      // With nothing selected, the panel edits the graph's own settings.
      await page.keyboard.press('Escape');
      const settings = page.getByTestId('graph-settings');
      await settings.waitFor({ state: 'visible' });
      await settings.getByLabel('New attribute name').fill('default_fidelity');
      await settings.getByTestId('edit-attr-default_fidelity').click();
      await settings.getByLabel('default_fidelity', { exact: true }).selectOption('compact');
      await settings.locator('.attributes-table__value', { hasText: 'compact' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-graph-settings.png') });

      // Save with the keyboard.
      await page.locator('.react-flow__pane').click();
      await page.keyboard.press('Control+s');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached', timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-saved.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }

    // On disk: only the edited lines changed, comments and layout intact.
    const saved = readFileSync(file, 'utf8');
    const { removed, added } = lineDiff(original.split('\n'), saved.split('\n'));
    for (const line of removed) {
      assert.match(line, /\b(greet|check)\b|script=|graph \[/, `only lines of the edited elements change: ${line}`);
      assert.ok(!line.trimStart().startsWith('//'), `a comment changed: ${line}`);
    }
    assert.ok(removed.length <= 6, `few lines changed: ${removed.join('\n')}`);
    assert.ok(added.length <= 10, `few lines added: ${added.join('\n')}`);
    for (const line of added) assert.ok(!line.trimStart().startsWith('//'), `a comment appeared: ${line}`);
    assert.ok(saved.includes('label="Say hello"'), saved);
    assert.ok(saved.includes('timeout="90s"') || saved.includes('timeout=90s'), saved);
    assert.ok(saved.includes('count -> verify;'), saved);
    assert.ok(saved.includes('greet -> agent'), saved);
    assert.ok(saved.includes('prompt="Summarise the greeting"'), saved);
    assert.ok(!saved.includes('wait ['), saved);
    assert.match(saved, /default_fidelity="?compact"?/);
    assert.ok(!/\bcheck\b/.test(saved.replace(/Greeting written\?|check the greeting file|`check` then/g, '')), saved);
    const reopened = await env.server.call('open_workflow', { path: file });
    assert.deepEqual(
      reopened.diagnostics.filter((d) => d.severity === 'error'),
      [],
      'the saved file validates',
    );
    assert.ok(reopened.workflow.nodes.some((n) => n.id === 'verify'));
  });

  test('the source view and the canvas edit the same text', { timeout: 180_000 }, async () => {
    const { file, original, page, context, pageErrors } = await openCopyOfHello(env, 'source.dot');
    try {
      await page.getByTestId('source-toggle').click();
      const source = page.getByTestId('source-view');
      await source.locator('.cm-line', { hasText: '// hello.dot' }).waitFor();
      assert.ok((await source.locator('.dot-comment').count()) > 0, 'comments are highlighted');

      // Typing a new node in the text draws it on the canvas.
      await source.locator('.cm-line', { hasText: 'label="Done"' }).click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('    extra [shape=box, label="From source"];');
      await page.locator('[data-node-id="extra"]').waitFor({ state: 'visible', timeout: LONG });

      // A syntax error is marked in the text and listed; the canvas keeps the last good graph.
      await page.keyboard.type(' [[[');
      await source.locator('.cm-lintRange-error').first().waitFor({ timeout: LONG });
      await page.getByRole('complementary', { name: 'Diagnostics' }).locator('.diagnostic-item').first().waitFor();
      assert.equal(await page.locator('[data-node-id="extra"]').count(), 1, 'the canvas was not wiped');
      await page.screenshot({ path: join(screenshotDir, 'editor-source-error.png') });
      for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
      await source.locator('.cm-lintRange-error').first().waitFor({ state: 'detached', timeout: LONG });

      // A canvas edit shows up in the text.
      await page.locator('[data-node-id="greet"]').click();
      const details = page.getByTestId('node-details');
      await details.getByTestId('edit-attr-label').click();
      await details.getByLabel('label', { exact: true }).fill('Greet from canvas');
      await page.keyboard.press('Enter');
      await source.locator('.cm-line', { hasText: 'label="Greet from canvas"' }).waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-source.png') });

      await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Control+s');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached', timeout: LONG });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
    const saved = readFileSync(file, 'utf8');
    assert.ok(saved.includes('    extra [shape=box, label="From source"];\n'), saved);
    assert.ok(saved.includes('label="Greet from canvas"'), saved);
    const { removed } = lineDiff(original.split('\n'), saved.split('\n'));
    assert.equal(removed.length, 1, `only the greet line changed: ${removed.join('\n')}`);
  });

  test('the theme toggle switches light and dark and is remembered; ? lists the shortcuts', { timeout: 120_000 }, async () => {
    const { page, context, pageErrors } = await openCopyOfHello(env, 'theme.dot');
    try {
      const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const toggle = page.getByTestId('theme-toggle');
      // Chromium runs headless with a light system preference: system, then light, then dark.
      assert.equal(await toggle.getAttribute('data-theme-choice'), 'system');
      assert.equal(await theme(), 'light');
      const light = await background();
      await toggle.click();
      await toggle.click();
      assert.equal(await toggle.getAttribute('data-theme-choice'), 'dark');
      assert.equal(await theme(), 'dark');
      assert.notEqual(await background(), light, 'the page did not turn dark');
      assert.equal(await page.locator('.react-flow.dark').count(), 1, 'the canvas follows the theme');
      await page.screenshot({ path: join(screenshotDir, 'editor-dark.png') });
      // The shortcuts help opens with ? and lists the save shortcut.
      await page.locator('.react-flow__pane').click();
      await page.keyboard.press('?');
      await page.getByTestId('shortcuts-help').getByText('Ctrl+S', { exact: true }).waitFor();
      await page.screenshot({ path: join(screenshotDir, 'editor-shortcuts.png') });
      await page.keyboard.press('Escape');
      await page.getByTestId('shortcuts-help').waitFor({ state: 'detached' });
      await page.reload();
      await page.locator('[data-node-id="greet"]').waitFor({ state: 'visible', timeout: LONG });
      assert.equal(await theme(), 'dark', 'the choice is remembered');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
