// Measures (does not assert timings) how fast a generated 300-node workflow opens and is laid
// out with each layout engine (Graphviz, the default auto choosing the layered engine, ELK; the
// median of several opens each), how smoothly the default canvas pans, and how smoothly a
// node follows the mouse when dragged, against the real `heddle serve`. The figures are printed
// as test diagnostics and written to test-output/browser/editor-perf.json.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { screenshotDir } from './support/paths.mjs';

const NODES = 300;
/** Opens per engine; the median is reported. */
const ROUNDS = 5;

/** A chain of command nodes with a conditional every tenth node looping back. */
function generated() {
  const lines = ['digraph Big {', '  start [shape=Mdiamond];', '  exit [shape=Msquare];'];
  for (let i = 0; i < NODES; i++) {
    lines.push(i % 10 === 9
      ? `  n${i} [shape=diamond, label="Check ${i}"];`
      : `  n${i} [shape=parallelogram, label="Step ${i}", script="echo ${i}"];`);
  }
  lines.push('  start -> n0;');
  for (let i = 1; i < NODES; i++) {
    lines.push(i % 10 === 0
      ? `  n${i - 1} -> n${i} [condition="outcome=success"];\n  n${i - 1} -> n${i - 9} [condition="outcome=fail"];`
      : `  n${i - 1} -> n${i};`);
  }
  lines.push(`  n${NODES - 1} -> exit;`, '}', '');
  return lines.join('\n');
}

/**
 * Opens `file` with `choice` chosen (as a person's remembered choice; `auto` is the default)
 * and returns the time from navigation start until every node is laid out by `engine` and
 * drawn.
 */
async function openAndTime(page, serverUrl, file, choice, engine = choice) {
  await page.addInitScript((chosen) => localStorage.setItem('heddle.layoutEngine', chosen), choice);
  const url = new URL(serverUrl);
  url.searchParams.set('file', file);
  await page.goto(url.toString());
  return page.evaluate(async ({ count, chosen }) => {
    const started = performance.now();
    await new Promise((resolve) => {
      const check = () => {
        const view = document.querySelector('[data-testid="workflow-view"]');
        const picker = document.querySelector('[data-testid="layout-engine"]');
        // Drawn: it opens readable around its start node, and a graph this large keeps only
        // the nodes in view in the page (zoomed far out, the one-drawing sketch has them all).
        const drawn = document.querySelector('.react-flow__node-handler[data-id="start"]') !== null ||
          document.querySelectorAll('.sketch-layer [data-node-id]').length === count;
        if (view?.getAttribute('data-layout') === 'ready' &&
            picker?.getAttribute('data-layout-engine') === chosen &&
            drawn) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - started + performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;
  }, { count: NODES + 2, chosen: engine });
}

/** How many workflow nodes are drawn: React Flow's, or the sketch's when zoomed far out. */
async function drawnNodes(page) {
  return (await page.locator('.react-flow__node-handler').count()) +
    (await page.locator('.sketch-layer [data-node-id]').count());
}

/** The graph opened readable: the start node drawn as a React Flow node, and only the nodes
 * in view in the page (not all of them). */
async function assertOpenedReadable(page) {
  assert.equal(await page.locator('.react-flow__node-handler[data-id="start"]').count(), 1, 'the start node is drawn');
  const drawn = await drawnNodes(page);
  assert.ok(drawn > 1 && drawn < NODES + 2, `only the nodes in view are in the page: ${drawn}`);
}

/** Starts counting animation frames in the page. */
async function startCountingFrames(page) {
  await page.evaluate(() => {
    window.__frames = 0;
    window.__counting = true;
    const tick = () => {
      window.__frames += 1;
      if (window.__counting) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function stopCountingFrames(page) {
  return page.evaluate(() => {
    window.__counting = false;
    return window.__frames;
  });
}

/** The handler node nearest the middle of the pane, with its screen box. */
async function nodeNearMiddle(page, pane) {
  const middle = { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 };
  const found = await page.evaluate(({ x, y }) => {
    let best = null;
    // React Flow's nodes, or (zoomed out) the sketch's.
    for (const el of document.querySelectorAll('.react-flow__node-handler, .sketch-layer [data-node-id]')) {
      const r = el.getBoundingClientRect();
      const d = Math.hypot(r.x + r.width / 2 - x, r.y + r.height / 2 - y);
      const id = el.getAttribute('data-id') ?? el.getAttribute('data-node-id');
      if (best === null || d < best.d) best = { id, d };
    }
    return best?.id ?? null;
  }, middle);
  assert.ok(found, 'a node is drawn');
  return found;
}

/** The flow position React Flow gives a node (its wrapper's translate), not its screen box. */
async function flowTransform(page, id) {
  return page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((el) => el.style.transform);
}

/**
 * Presses the mouse on a node near the middle of the canvas and drags it in small steps for
 * about a second, counting frames; asserts the node followed the mouse on screen. Nodes that
 * cannot be moved within the graph drag the canvas (the node goes along with it): the result
 * says which happened.
 */
async function dragANode(page) {
  const pane = await page.locator('.react-flow__pane').boundingBox();
  assert.ok(pane);
  const id = await nodeNearMiddle(page, pane);
  const node = page.locator(`.react-flow__node[data-id="${id}"]`);
  // Zoom in around the node until it is big enough to grab comfortably (zoomed out it is drawn
  // in the sketch, then as a React Flow node).
  const sketched = page.locator(`.sketch-layer [data-node-id="${id}"]`);
  const boxIfDrawn = async (locator) => ((await locator.count()) > 0 ? locator.boundingBox() : null);
  for (let i = 0; i < 12; i++) {
    const real = await boxIfDrawn(node);
    const box = real ?? (await boxIfDrawn(sketched));
    if (real !== null && real.height >= 40) break;
    if (box !== null) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(150);
  }
  const before = await node.boundingBox();
  assert.ok(before && before.height >= 20, `node ${id} is big enough to grab: ${JSON.stringify(before)}`);
  const transformBefore = await flowTransform(page, id);
  const start = { x: before.x + before.width / 2, y: before.y + before.height / 2 };

  await page.mouse.move(start.x, start.y);
  await startCountingFrames(page);
  const began = Date.now();
  await page.mouse.down();
  let step = 0;
  while (Date.now() - began < 1000) {
    step += 1;
    const t = Math.min(1, (Date.now() - began) / 1000);
    await page.mouse.move(start.x + 160 * t, start.y + 60 * Math.sin(t * Math.PI));
  }
  await page.mouse.move(start.x + 160, start.y);
  await page.mouse.up();
  const elapsed = Date.now() - began;
  const frames = await stopCountingFrames(page);

  const after = await node.boundingBox();
  assert.ok(after, 'the node is still drawn');
  const moved = after.x - before.x;
  assert.ok(moved > 120 && moved < 200, `the node followed the mouse 160 px to the right (moved ${moved})`);
  const movedWithinGraph = (await flowTransform(page, id)) !== transformBefore;
  return {
    fps: (frames * 1000) / elapsed,
    moves: step,
    what: movedWithinGraph ? 'node' : 'canvas',
  };
}

describe('editor performance (measured, not asserted)', () => {
  const env = serverAndBrowser('perf');

  test(`a ${NODES}-node workflow opens and lays out; panning and dragging frame rates`, { timeout: 240_000 }, async (t) => {
    const file = join(env.tempDir, 'big.dot');
    writeFileSync(file, generated());
    const figures = { nodes: NODES + 2 };

    // Each engine opens the file ROUNDS times in a fresh page, the engines taking turns, so
    // the machine's noise falls on all of them alike; the median is reported.
    const engines = [
      { key: 'graphviz', choice: 'graphviz', engine: 'graphviz' },
      // The default choice, auto, lays a graph this large out with the layered engine.
      { key: 'default_auto', choice: 'auto', engine: 'layered' },
      { key: 'elk', choice: 'elk', engine: 'elk' },
    ];
    const times = Object.fromEntries(engines.map((e) => [e.key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const { key, choice, engine } of engines) {
        const opened = await openPage(env.browser);
        try {
          times[key].push(Math.round(await openAndTime(opened.page, env.server.url, file, choice, engine)));
          await assertOpenedReadable(opened.page);
          assert.equal(await opened.page.getByLabel('Layout engine').inputValue(), choice);
          if (round === 0) await opened.page.screenshot({ path: join(screenshotDir, `editor-300-nodes-${engine}.png`) });
          assert.deepEqual(opened.pageErrors, []);
        } finally {
          await opened.context.close();
        }
      }
    }
    for (const { key } of engines) {
      const sorted = [...times[key]].sort((a, b) => a - b);
      figures[`${key}_open_and_layout_ms`] = sorted[Math.floor(sorted.length / 2)];
      figures[`${key}_open_and_layout_runs_ms`] = times[key];
    }

    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      // Panning and dragging on the default (auto) canvas.
      await openAndTime(page, env.server.url, file, 'auto', 'layered');
      await assertOpenedReadable(page);

      // Pan the canvas for a second with the mouse and count frames.
      const pane = await page.locator('.react-flow__pane').boundingBox();
      assert.ok(pane);
      const x = pane.x + pane.width / 2;
      const y = pane.y + pane.height / 2;
      await startCountingFrames(page);
      const panStart = Date.now();
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 0; i < 60; i++) await page.mouse.move(x - i * 5, y - (i % 10), { steps: 2 });
      await page.mouse.up();
      const panMs = Date.now() - panStart;
      figures.pan_fps = Math.round((await stopCountingFrames(page)) * 1000 / panMs);
      await page.screenshot({ path: join(screenshotDir, 'editor-300-nodes.png') });

      const drag = await dragANode(page);
      figures.drag_fps = Math.round(drag.fps);
      figures.drag_mouse_moves = drag.moves;
      figures.drag_moved = drag.what;
      await page.screenshot({ path: join(screenshotDir, 'editor-300-nodes-dragged.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
    t.diagnostic(JSON.stringify(figures));
    writeFileSync(join(screenshotDir, 'editor-perf.json'), `${JSON.stringify(figures, null, 2)}\n`);
  });
});
