// Browser test of the layout-engine choice against the real `heddle serve`: the canvas opens
// with the layered engine (Auto), in rank order with cluster members inside their box;
// switching to Graphviz lays the workflow out again the same way, the choice survives a reload,
// and switching to ELK works too.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { examplesDir, screenshotDir } from './support/paths.mjs';

import { LONG, settledBox } from './support/editorPage.mjs';

/** A left-to-right workflow whose middle stage is a cluster of two nodes in a row. */
const LEFT_TO_RIGHT = `digraph Staged {
  graph [rankdir=LR];
  start [shape=Mdiamond];
  exit [shape=Msquare];
  subgraph cluster_build {
    label="Build";
    compile [shape=parallelogram, label="Compile", script="make"];
    test [shape=parallelogram, label="Test", script="make test"];
  }
  start -> compile -> test -> exit;
}
`;

async function openWorkflow(env, file) {
  const opened = await openPage(env.browser);
  const url = new URL(env.server.url);
  url.searchParams.set('file', file);
  await opened.page.goto(url.toString());
  return opened;
}

/** Waits until the canvas shows a layout made by `engine`. */
async function waitForEngine(page, engine) {
  const picker = page.locator(`[data-testid="layout-engine"][data-layout-engine="${engine}"]`);
  await picker.waitFor({ timeout: LONG });
  await page.locator('[data-testid="workflow-view"][data-layout="ready"]').waitFor({ timeout: LONG });
}

async function nodeBox(page, id) {
  const box = await settledBox(page.locator(`[data-node-id="${id}"]`));
  assert.ok(box, `node ${id} is drawn`);
  return box;
}

function centre(box) {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

function assertInside(inner, outer, what) {
  const slack = 1;
  assert.ok(
    inner.x >= outer.x - slack &&
      inner.y >= outer.y - slack &&
      inner.x + inner.width <= outer.x + outer.width + slack &&
      inner.y + inner.height <= outer.y + outer.height + slack,
    `${what}: ${JSON.stringify(inner)} lies inside ${JSON.stringify(outer)}`,
  );
}

/**
 * parallel-review.dot laid out in rank order: each stage below the previous one, the three
 * reviewers side by side on one rank, their box holding them and nothing else.
 */
async function assertReviewLayout(page) {
  const reviewerIds = ['correctness', 'security', 'style'];
  const stages = [['start'], ['fanout'], reviewerIds, ['join'], ['report'], ['exit']];
  let above = null;
  for (const stage of stages) {
    const boxes = await Promise.all(stage.map((id) => nodeBox(page, id)));
    const top = Math.min(...boxes.map((b) => b.y));
    if (above !== null) assert.ok(top > above, `${stage.join(', ')} lie below the previous rank`);
    above = Math.max(...boxes.map((b) => b.y + b.height));
  }
  const reviewers = await Promise.all(reviewerIds.map((id) => nodeBox(page, id)));
  const ys = reviewers.map((b) => Math.round(centre(b).y));
  assert.ok(Math.max(...ys) - Math.min(...ys) <= 2, `reviewers share a rank: ${ys}`);
  const group = await settledBox(page.locator('.react-flow__node-subgraph'));
  assert.ok(group, 'the Reviewers box is drawn');
  for (const [i, id] of reviewerIds.entries()) assertInside(reviewers[i], group, id);
  for (const id of ['fanout', 'join']) {
    const b = await nodeBox(page, id);
    assert.ok(b.y + b.height <= group.y || b.y >= group.y + group.height, `${id} lies outside the box`);
  }
}

describe('layout engine choice', () => {
  const env = serverAndBrowser('layout-engine');

  const REVIEW_TITLE = 'the layered engine (Auto) and Graphviz lay out parallel-review.dot in rank order with the reviewers inside their box';
  test(REVIEW_TITLE, { timeout: 180_000 }, async () => {
    const file = join(env.tempDir, 'parallel-review.dot');
    copyFileSync(join(examplesDir, 'parallel-review.dot'), file);
    const { page, context, pageErrors } = await openWorkflow(env, file);
    try {
      await waitForEngine(page, 'layered');
      const select = page.getByLabel('Layout engine');
      assert.equal(await select.inputValue(), 'auto', 'Auto is the default, and picks the layered engine');
      await assertReviewLayout(page);
      await page.screenshot({ path: join(screenshotDir, 'layout-layered.png') });

      await select.selectOption('graphviz');
      await waitForEngine(page, 'graphviz');
      await assertReviewLayout(page);
      await page.screenshot({ path: join(screenshotDir, 'layout-graphviz.png') });

      // The choice is remembered: a reload lays out with Graphviz straight away.
      await page.reload();
      await waitForEngine(page, 'graphviz');
      assert.equal(await page.getByLabel('Layout engine').inputValue(), 'graphviz');
      assert.equal(await page.evaluate(() => localStorage.getItem('heddle.layoutEngine')), 'graphviz');

      // And switching to ELK gives ELK's layout.
      await page.getByLabel('Layout engine').selectOption('elk');
      await waitForEngine(page, 'elk');
      assert.equal(await page.locator('.react-flow__node-handler').count(), 8);
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('Graphviz honours rankdir=LR and keeps a cluster round its members', { timeout: 120_000 }, async () => {
    const file = join(env.tempDir, 'staged.dot');
    writeFileSync(file, LEFT_TO_RIGHT);
    const { page, context, pageErrors } = await openWorkflow(env, file);
    try {
      await page.addInitScript(() => localStorage.setItem('heddle.layoutEngine', 'graphviz'));
      await page.reload();
      await waitForEngine(page, 'graphviz');
      const boxes = {};
      for (const id of ['start', 'compile', 'test', 'exit']) boxes[id] = await nodeBox(page, id);
      assert.ok(boxes.compile.x > boxes.start.x + boxes.start.width, 'compile is right of start');
      assert.ok(boxes.test.x > boxes.compile.x + boxes.compile.width, 'test is right of compile');
      assert.ok(boxes.exit.x > boxes.test.x + boxes.test.width, 'exit is right of test');
      const group = await settledBox(page.locator('.react-flow__node-subgraph'));
      assert.ok(group, 'the Build box is drawn');
      assertInside(boxes.compile, group, 'compile');
      assertInside(boxes.test, group, 'test');
      assert.ok(boxes.start.x + boxes.start.width <= group.x, 'start lies left of the box');
      assert.ok(boxes.exit.x >= group.x + group.width, 'exit lies right of the box');
      await page.screenshot({ path: join(screenshotDir, 'layout-graphviz-lr.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
