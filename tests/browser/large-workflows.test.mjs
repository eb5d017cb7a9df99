// Browser test of how large workflows open, against the real `heddle serve`: a 76-node and a
// 34-node left-to-right chain with checks that loop back, and a 24-way fan-out
// (fixtures/large/). Each opens at a zoom where node labels can be read, with the start node
// in view and the minimap for the whole; the long chains are folded into rows that match the
// canvas's shape, so "fit view" shows them filling the canvas instead of as a thin line. The
// same holds for a run's live graph. Screenshots of each go to test-output/browser/.
// Run: `node --test tests/browser/large-workflows.test.mjs` (needs the heddle binary and `ui/dist`).
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { LONG, settledBox } from './support/editorPage.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { EventWriter, concludeRun, createRunFolder, syntheticUlid } from './support/syntheticRun.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'large');

/** A label drawn smaller than this many pixels on screen cannot be read comfortably. */
const READABLE_LABEL_PX = 10;

/** How the canvas shows the graph now: the pane, the zoom, the label size on screen and the
 * screen box round every node drawn (as React Flow nodes, or zoomed far out in the sketch). */
async function canvasState(page) {
  return page.evaluate(() => {
    const pane = document.querySelector('.react-flow').getBoundingClientRect();
    const viewport = document.querySelector('.react-flow__viewport');
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const label = document.querySelector('.handler-node__label');
    const labelPx = label === null ? 0 : parseFloat(getComputedStyle(label).fontSize) * zoom;
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    for (const node of document.querySelectorAll('.react-flow__node:not([style*="visibility: hidden"]), .sketch-layer [data-node-id]')) {
      const box = node.getBoundingClientRect();
      left = Math.min(left, box.left);
      top = Math.min(top, box.top);
      right = Math.max(right, box.right);
      bottom = Math.max(bottom, box.bottom);
    }
    return {
      pane: { x: pane.left, y: pane.top, width: pane.width, height: pane.height },
      zoom,
      labelPx,
      graph: { x: left, y: top, width: right - left, height: bottom - top },
    };
  });
}

function assertInView(box, pane, what) {
  assert.ok(box, `${what} is drawn`);
  assert.ok(
    box.x >= pane.x && box.y >= pane.y && box.x + box.width <= pane.x + pane.width && box.y + box.height <= pane.y + pane.height,
    `${what} ${JSON.stringify(box)} lies inside the canvas ${JSON.stringify(pane)}`,
  );
}

async function openFixture(env, name, engine = null) {
  const file = join(env.tempDir, name);
  copyFileSync(join(fixtures, name), file);
  const opened = await openPage(env.browser);
  if (engine !== null) await opened.page.addInitScript((chosen) => localStorage.setItem('heddle.layoutEngine', chosen), engine);
  const url = new URL(env.server.url);
  url.searchParams.set('file', file);
  await opened.page.goto(url.toString());
  await opened.page.locator('[data-testid="workflow-view"][data-layout="ready"]').waitFor({ timeout: LONG });
  if (engine !== null) await opened.page.locator(`[data-testid="layout-engine"][data-layout-engine="${engine}"]`).waitFor({ timeout: LONG });
  await opened.page.locator('[data-node-id="start"]').waitFor({ state: 'visible', timeout: LONG });
  return opened;
}

/** Opens `name`, checks the opening view and the fitted one, and screenshots both. */
async function checkOpening(env, name, { fitFills, engine = null }) {
  const opened = await openFixture(env, name, engine);
  const stem = `large-${name.replace(/\.dot$/, '')}${engine === null ? '' : `-${engine}`}`;
  await checkCanvas(opened, engine === null ? name : `${name} (${engine})`, stem, { fitFills });
}

/** Checks the canvas in `opened`: readable on opening, filled once fitted; screenshots both. */
async function checkCanvas({ page, context, pageErrors }, name, stem, { fitFills }) {
  try {
    const opening = await canvasState(page);
    await page.screenshot({ path: join(screenshotDir, `${stem}-open.png`) });
    assert.ok(
      opening.labelPx >= READABLE_LABEL_PX,
      `${name} opens with labels ${opening.labelPx.toFixed(1)}px tall on screen (zoom ${opening.zoom.toFixed(2)})`,
    );
    assertInView(await settledBox(page.locator('[data-node-id="start"]')), opening.pane, `${name}'s start node`);
    assert.ok(await page.getByRole('img', { name: 'Workflow overview' }).isVisible(), 'the minimap shows the whole');

    await page.locator('.react-flow__controls-fitview').click();
    await settledBox(page.locator('[data-node-id="start"]'));
    const fitted = await canvasState(page);
    await page.screenshot({ path: join(screenshotDir, `${stem}-fit.png`) });
    const across = fitted.graph.width / fitted.pane.width;
    const down = fitted.graph.height / fitted.pane.height;
    const shape = `the fitted graph takes ${(across * 100).toFixed(0)}% of the canvas's width and ${(down * 100).toFixed(0)}% of its height (zoom ${fitted.zoom.toFixed(2)})`;
    assert.ok(Math.max(across, down) >= 0.8, `${name}: ${shape}`);
    if (fitFills) assert.ok(Math.min(across, down) >= 0.45, `${name} is folded to the canvas's shape: ${shape}`);
    assert.equal(await page.locator('.react-flow__minimap').count(), 0, 'with all of it in view, no minimap covers a corner');
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
}

describe('large workflows', () => {
  const env = serverAndBrowser('large-workflows');

  test('a 76-node left-to-right chain opens readable, and fits the canvas folded into rows', { timeout: 120_000 }, async () => {
    await checkOpening(env, 'release-train.dot', { fitFills: true });
  });

  test('a 34-node left-to-right chain opens readable, and fits the canvas folded into rows', { timeout: 120_000 }, async () => {
    await checkOpening(env, 'bug-hunt.dot', { fitFills: true });
  });

  test('the 34-node chain laid out by Graphviz is folded the same way', { timeout: 120_000 }, async () => {
    await checkOpening(env, 'bug-hunt.dot', { fitFills: true, engine: 'graphviz' });
  });

  test("a run of the 76-node chain shows its live graph readable, folded the same way", { timeout: 120_000 }, async () => {
    const { server } = env;
    const id = syntheticUlid('LG', 1);
    const start = Date.UTC(2026, 10, 26, 9, 0, 0);
    const folder = createRunFolder(server.home, id, 'ReleaseTrain', 74, start);
    writeFileSync(join(folder, 'graph.dot'), readFileSync(join(fixtures, 'release-train.dot'), 'utf8'));
    const writer = new EventWriter(folder, id, start);
    const done = ['start', 'read_issues', 'survey_code', 'list_modules'];
    const lines = [writer.runStarted('ReleaseTrain')];
    done.forEach((node, i) => lines.push(...writer.stageLines(node, done[i + 1] ?? null, 2)));
    writer.append(lines);
    concludeRun(folder, id, done.length, writer.clock, writer.clock - start);
    for (let i = 0; i < 200; i++) {
      try {
        await server.call('get_run', { run_id: id });
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    const opened = await openPage(env.browser);
    const url = new URL(server.url);
    url.searchParams.set('run', id);
    await opened.page.goto(url.toString());
    await opened.page.locator('[data-node-id="survey_code"][data-run-status="succeeded"]').waitFor({ timeout: LONG });
    await checkCanvas(opened, 'the run of release-train.dot', 'large-run-release-train', { fitFills: true });
  });

  test('a 24-way fan-out opens readable around its start node', { timeout: 120_000 }, async () => {
    await checkOpening(env, 'wide-review.dot', { fitFills: false });
  });
});
