// Measures (does not assert timings) how fast a generated 300-node workflow opens and is laid
// out, and how smoothly the canvas pans, against the real `heddle serve`. The figures are
// printed as test diagnostics and written to test-output/browser/editor-perf.json.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { screenshotDir } from './support/paths.mjs';

const NODES = 300;

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

describe('editor performance (measured, not asserted)', () => {
  const env = serverAndBrowser('perf');

  test(`a ${NODES}-node workflow opens and lays out; panning frame rate`, { timeout: 180_000 }, async (t) => {
    const file = join(env.tempDir, 'big.dot');
    writeFileSync(file, generated());
    const { page, context } = await openPage(env.browser);
    try {
      const url = new URL(env.server.url);
      url.searchParams.set('file', file);
      await page.goto(url.toString());
      // From the moment the page has the app until every node is laid out and drawn.
      const openMs = await page.evaluate(async (count) => {
        const started = performance.now();
        await new Promise((resolve) => {
          const check = () => {
            const view = document.querySelector('[data-testid="workflow-view"]');
            if (view?.getAttribute('data-layout') === 'ready' &&
                document.querySelectorAll('.react-flow__node-handler').length === count) resolve();
            else requestAnimationFrame(check);
          };
          check();
        });
        return performance.now() - started + performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;
      }, NODES + 2);
      assert.equal(await page.locator('.react-flow__node-handler').count(), NODES + 2);

      // Pan the canvas for a second with the mouse and count frames.
      const pane = await page.locator('.react-flow__pane').boundingBox();
      assert.ok(pane);
      const x = pane.x + pane.width / 2;
      const y = pane.y + pane.height / 2;
      await page.evaluate(() => {
        window.__frames = 0;
        const tick = () => {
          window.__frames += 1;
          if (window.__counting) requestAnimationFrame(tick);
        };
        window.__counting = true;
        requestAnimationFrame(tick);
      });
      const panStart = Date.now();
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 0; i < 60; i++) await page.mouse.move(x - i * 5, y - (i % 10), { steps: 2 });
      await page.mouse.up();
      const panMs = Date.now() - panStart;
      const frames = await page.evaluate(() => {
        window.__counting = false;
        return window.__frames;
      });
      const fps = (frames * 1000) / panMs;
      const figures = { nodes: NODES + 2, open_and_layout_ms: Math.round(openMs), pan_fps: Math.round(fps) };
      t.diagnostic(JSON.stringify(figures));
      writeFileSync(join(screenshotDir, 'editor-perf.json'), `${JSON.stringify(figures, null, 2)}\n`);
      await page.screenshot({ path: join(screenshotDir, 'editor-300-nodes.png') });
    } finally {
      await context.close();
    }
  });
});
