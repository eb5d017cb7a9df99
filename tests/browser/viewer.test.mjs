// Browser tests of the read-only workflow viewer against the real `heddle serve`.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { examplesDir, screenshotDir } from './support/paths.mjs';

const LONG = 60_000;

/** `hello.dot` when the examples have it, else the first `.dot` file. */
function pickExample() {
  const dots = readdirSync(examplesDir)
    .filter((name) => name.endsWith('.dot'))
    .sort();
  assert.ok(dots.length > 0, `no .dot files in ${examplesDir}`);
  return join(examplesDir, dots.includes('hello.dot') ? 'hello.dot' : dots[0]);
}

function viewerUrl(base, file) {
  const url = new URL(base);
  url.searchParams.set('file', file);
  return url.toString();
}

/** A diagnostic message as the page shows it: backticked code is set as code, without the ticks. */
function shownMessage(message) {
  return message.replace(/`([^`]+)`/g, '$1');
}

/** The label lines a node renders, joined like the source label (whitespace folded). */
function folded(text) {
  return text.replace(/\s+/g, ' ').trim();
}

describe('workflow viewer', () => {
  const env = serverAndBrowser('browser', { workspace: examplesDir });

  test('shows an example workflow: nodes, labels, diagnostics, details', { timeout: 120_000 }, async () => {
    const file = pickExample();
    const expected = await env.server.call('open_workflow', { path: file });
    assert.ok(expected.workflow, `${file} should parse`);
    const { nodes, edges } = expected.workflow;
    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      await page.goto(viewerUrl(env.server.url, file));

      // Every node is drawn, and nothing else is drawn as a node.
      await page.waitForFunction(
        (count) => document.querySelectorAll('.react-flow__node-handler').length === count,
        nodes.length,
        { timeout: LONG },
      );
      assert.equal(await page.locator('.react-flow__node-handler').count(), nodes.length);
      assert.equal(await page.locator('.react-flow__edge').count(), edges.length);

      // Each node shows its label (unless it had to be cut short).
      for (const node of nodes) {
        const element = page.locator(`[data-node-id="${node.id}"]`);
        await element.waitFor({ state: 'visible', timeout: LONG });
        const lines = await element.locator('.handler-node__label').allInnerTexts();
        const shown = folded(lines.join(' '));
        if (!shown.endsWith('…')) assert.equal(shown, folded(node.label), `label of ${node.id}`);
        assert.equal(await element.getAttribute('data-kind'), node.kind, `kind of ${node.id}`);
      }

      // Edge labels are visible on the canvas.
      for (const edge of edges.filter((e) => e.label)) {
        await page.locator('.edge-chip__label', { hasText: edge.label }).first().waitFor({ state: 'visible' });
      }

      // The diagnostics panel lists every diagnostic (or says there are none).
      const panel = page.getByRole('complementary', { name: 'Diagnostics' });
      await panel.waitFor({ state: 'visible' });
      if (expected.diagnostics.length === 0) {
        await panel.getByText('No problems found.').waitFor();
      } else {
        assert.equal(await panel.locator('.diagnostic-item').count(), expected.diagnostics.length);
      }
      await page.locator('[data-testid="open-file-name"]').waitFor();
      await page.screenshot({ path: join(screenshotDir, 'viewer-example.png') });

      // Clicking a node opens its details.
      const target = nodes.find((n) => n.kind !== 'start') ?? nodes[0];
      await page.locator(`[data-node-id="${target.id}"]`).click();
      const details = page.getByTestId('node-details');
      await details.waitFor({ state: 'visible' });
      assert.equal(await details.getByTestId('details-node-id').innerText(), target.id);
      assert.ok(await page.locator(`.react-flow__node.selected[data-id="${target.id}"]`).count() === 1);
      await page.screenshot({ path: join(screenshotDir, 'viewer-node-details.png') });

      // Escape clears the selection.
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached' });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('renders in the dark theme when the system asks for it', { timeout: 120_000 }, async () => {
    const file = pickExample();
    const { page, context, pageErrors } = await openPage(env.browser, { colorScheme: 'dark' });
    try {
      await page.goto(viewerUrl(env.server.url, file));
      await page.locator('.react-flow__node-handler').first().waitFor({ timeout: LONG });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(background, 'rgb(246, 247, 249)', 'the light background should not be used');
      await page.screenshot({ path: join(screenshotDir, 'viewer-example-dark.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('selects and centres the node a diagnostic names', { timeout: 120_000 }, async (t) => {
    // An unreachable node is something every lint configuration reports.
    const file = join(env.tempDir, 'lint.dot');
    writeFileSync(
      file,
      [
        'digraph Lint {',
        '    start [shape=Mdiamond];',
        '    exit [shape=Msquare];',
        '    work [label="Do the work", prompt="Work."];',
        '    orphan [label="Never reached", prompt="Nobody calls me."];',
        '    start -> work -> exit;',
        '}',
        '',
      ].join('\n'),
    );
    const expected = await env.server.call('open_workflow', { path: file });
    const named = expected.diagnostics.find((d) => d.node !== null && d.edge === null);
    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      await page.goto(viewerUrl(env.server.url, file));
      await page.locator('.react-flow__node-handler').first().waitFor({ timeout: LONG });
      const items = page.locator('.diagnostic-item');
      assert.equal(await items.count(), expected.diagnostics.length);
      if (named === undefined) {
        t.skip('no lint rule named a node in this workflow');
        return;
      }
      await page.locator('button.diagnostic-item', { hasText: shownMessage(named.message) }).first().click();
      const details = page.getByTestId('node-details');
      await details.waitFor({ state: 'visible' });
      assert.equal(await details.getByTestId('details-node-id').innerText(), named.node);
      await page.locator(`.react-flow__node.selected[data-id="${named.node}"]`).waitFor();
      await page.locator('.diagnostic-item.is-active').first().waitFor();
      await page.screenshot({ path: join(screenshotDir, 'viewer-diagnostic-selected.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('shows a file with syntax errors: recovered graph and the error with line:col', { timeout: 120_000 }, async () => {
    const file = join(env.tempDir, 'broken.dot');
    writeFileSync(
      file,
      [
        'digraph Broken {',
        '    start [shape=Mdiamond];',
        '    exit [shape=Msquare];',
        '    work [label="Do the work"];',
        '    start -> work -> exit;',
        '    work -> [label="dangling"];',
        '}',
        '',
      ].join('\n'),
    );
    const expected = await env.server.call('open_workflow', { path: file });
    const syntax = expected.diagnostics.find((d) => d.rule === 'syntax' && d.span !== null);
    assert.ok(syntax, `the server should report a syntax error with a place: ${JSON.stringify(expected.diagnostics)}`);
    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      await page.goto(viewerUrl(env.server.url, file));
      const location = `${syntax.span.line}:${syntax.span.column}`;
      const item = page.locator('.diagnostic-item[data-rule="syntax"]', { hasText: location }).first();
      await item.waitFor({ state: 'visible', timeout: LONG });
      assert.ok((await item.innerText()).includes(shownMessage(syntax.message)), 'the message is shown');
      assert.ok((await page.locator('.diagnostic-count.severity-error').innerText()).trim() !== '0');

      if (expected.workflow !== null) {
        // Whatever graph the parser recovered is still drawn.
        await page.waitForFunction(
          (count) => document.querySelectorAll('.react-flow__node-handler').length === count,
          expected.workflow.nodes.length,
          { timeout: LONG },
        );
      } else {
        await page.getByTestId('unreadable-workflow').waitFor();
      }
      await page.screenshot({ path: join(screenshotDir, 'viewer-syntax-error.png') });
      await page.getByText('Heddle', { exact: true }).waitFor();
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('without a file, lists the workspace workflows and opens one by path', { timeout: 120_000 }, async () => {
    const listed = await env.server.call('list_workflows', { dir: examplesDir });
    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      await page.goto(env.server.url);
      await page.getByRole('heading', { name: 'Open a workflow' }).waitFor({ timeout: LONG });
      await page.locator('.workflow-list__item').first().waitFor();
      assert.equal(await page.locator('.workflow-list__item').count(), listed.length);
      await page.screenshot({ path: join(screenshotDir, 'viewer-empty-state.png') });

      const file = pickExample();
      await page.getByLabel('Path to a workflow file').fill(file);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.locator('.react-flow__node-handler').first().waitFor({ timeout: LONG });
      assert.ok(new URL(page.url()).searchParams.get('file') === file);
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
