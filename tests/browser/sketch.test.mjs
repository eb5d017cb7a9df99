// Browser test of the zoomed-out sketch against the real `heddle serve`: a graph zoomed out
// too far to read is drawn as one drawing (no React Flow nodes), a node is selected by
// clicking its outline, a problem in the panel zooms to its node, and zooming in brings the
// real nodes back. Screenshots saved under test-output/browser.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { LONG } from './support/editorPage.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';

/** A chain of `count` command nodes with a retry loop, too tall to read when fitted. */
function chain(count) {
  const lines = ['digraph Tall {', '  start [shape=Mdiamond];', '  exit [shape=Msquare];'];
  for (let i = 0; i < count; i++) lines.push(`  s${i} [shape=parallelogram, label="Step ${i}", script="echo ${i}"];`);
  lines.push('  start -> s0;');
  for (let i = 1; i < count; i++) lines.push(`  s${i - 1} -> s${i};`);
  lines.push(`  s${count - 1} -> s${count - 5} [label="again"];`, `  s${count - 1} -> exit;`, '}', '');
  return lines.join('\n');
}

describe('zoomed-out sketch', () => {
  const env = serverAndBrowser('sketch');

  test('a tall graph zoomed out is a sketch, selects by click and zooms into real nodes', { timeout: 120_000 }, async () => {
    const file = join(env.tempDir, 'tall.dot');
    writeFileSync(file, chain(120));
    const { page, context, pageErrors } = await openPage(env.browser);
    try {
      const url = new URL(env.server.url);
      url.searchParams.set('file', file);
      await page.goto(url.toString());
      // It opens readable (real nodes, around the start); zoomed out far enough it is one sketch.
      await page.locator('.react-flow__node-handler[data-id="start"]').waitFor({ timeout: LONG });
      const sketch = page.getByTestId('sketch-layer');
      const pane = await page.locator('.react-flow__pane').boundingBox();
      assert.ok(pane);
      await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
      for (let i = 0; i < 12 && (await sketch.count()) === 0; i++) {
        await page.mouse.wheel(0, 400);
        await page.waitForTimeout(150);
      }
      await sketch.waitFor({ timeout: LONG });
      assert.equal(await sketch.locator('[data-node-id]').count(), 122, 'every node is in the sketch');
      assert.equal(await sketch.locator('[data-edge-id]').count(), 122, 'every edge is in the sketch');
      assert.equal(await page.locator('.react-flow__node-handler').count(), 0, 'no React Flow node is drawn');
      await page.screenshot({ path: join(screenshotDir, 'sketch-zoomed-out.png') });

      // Clicking a node's outline selects it.
      await sketch.locator('[data-node-id="s60"]').click();
      const details = page.getByTestId('node-details');
      await details.getByText('s60', { exact: true }).first().waitFor();
      assert.equal(await sketch.locator('[data-node-id="s60"].is-selected').count(), 1, 'the outline shows the selection');

      // Zooming in past the threshold draws the real nodes instead.
      const box = await sketch.locator('[data-node-id="s60"]').boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 12 && (await page.getByTestId('sketch-layer').count()) > 0; i++) {
        await page.mouse.wheel(0, -400);
        await page.waitForTimeout(150);
      }
      assert.equal(await page.getByTestId('sketch-layer').count(), 0, 'the sketch is gone once zoomed in');
      await page.locator('.react-flow__node-handler[data-id="s60"]').waitFor();
      assert.equal(await page.locator('[data-node-id="s60"] .handler-node__label', { hasText: 'Step 60' }).count(), 1);
      await page.screenshot({ path: join(screenshotDir, 'sketch-zoomed-in.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
