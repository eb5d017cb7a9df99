// The runs screen on 20,000-stage runs (issue 24): a test → fix loop visited 10,000 times
// (about 100,000 events) and a 20,000-node chain, written as synthetic run folders in the
// real format. Measured (reported in test-output/browser/runs-long.json, never asserted as
// timings): from navigation until the timeline and the graph are shown, until they answer
// (a click on a graph node shows its stage, a zoom key zooms the timeline), until every event
// has been read, and the long tasks meanwhile. Asserted: the page holds only the bars in view
// (and, for the chain, an overview drawn as one outline rather than an element per node),
// a stage deep in the run (the 15,000th) can be reached by zooming and selected, and the last
// stage can be reached; the chain's canvas holds only the nodes near its view and follows it,
// and its layout ran in the layered engine's worker.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { chainDot, finishedRun, loopDot, loopVisits } from './support/syntheticRun.mjs';

const STAGES = 20_000;
/** How many times each run is opened (a shared, noisy machine: medians are reported). */
const ROUNDS = Number(process.env.HEDDLE_LONG_ROUNDS ?? 3);
/** Fewer bars than this in the page: only a window of the run's 20,000 is drawn. */
const MAX_BARS_IN_PAGE = 2_000;

/** The middle value (the upper middle of an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Waits until the run index has read the whole run (its timeline holds every stage); returns
 * how long that took, in ms.
 */
async function indexed(server, id, stages) {
  const began = Date.now();
  for (let i = 0; i < 3000; i++) {
    try {
      const timeline = await server.call('run_timeline', { run_id: id });
      if (timeline.stages.length >= stages) return Date.now() - began;
    } catch {
      // Not in the index yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`run ${id} was never fully indexed`);
}

/** Records the page's long tasks from its start (`window.__longTasks`). */
function recordLongTasks() {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the figures say so by being absent.
  }
}

const now = (page) => page.evaluate(() => Math.round(performance.now()));
const waitFor = (page, predicate) => page.waitForFunction(predicate, undefined, { timeout: 120_000, polling: 'raf' });

/** Something of the timeline's track is drawn. */
const TIMELINE_SHOWN = `document.querySelector('[data-testid="run-timeline"] [data-testid="timeline-bar"], [data-testid="run-timeline"] [data-testid="timeline-cluster"]') !== null`;
/** The start node and every node drawn carry their status. */
/** Every node drawn carries its status. */
const DRAWN_MARKED = `document.querySelectorAll('[data-node-id]:not([data-run-status])').length === 0`;
const GRAPH_SHOWN = `document.querySelector('[data-node-id="start"][data-run-status="succeeded"]') !== null && ${DRAWN_MARKED}`;

/**
 * Opens the run and times it from navigation: shown, answering (a click on `node` in the
 * graph shows its latest stage; the zoom-in key zooms the timeline), every event read.
 */
async function openAndTime(page, base, id, node) {
  const url = new URL(base);
  url.searchParams.set('run', id);
  await page.goto(url.toString());
  const figures = {};
  await waitFor(page, TIMELINE_SHOWN);
  figures.timeline_shown_ms = await now(page);
  await waitFor(page, GRAPH_SHOWN);
  figures.graph_shown_ms = await now(page);
  await page.locator(`.react-flow__node[data-id="${node}"]`).click();
  await page.locator(`[data-testid="stage-detail"][data-node="${node}"]`).waitFor({ timeout: 120_000 });
  figures.graph_answered_ms = await now(page);
  await page.locator('[data-testid="run-timeline"]').getByRole('button', { name: 'Zoom in', exact: true }).click();
  await page.locator('[data-testid="run-timeline"] .run-timeline__zoom button:enabled', { hasText: 'Fit' }).waitFor({ timeout: 120_000 });
  await waitFor(page, TIMELINE_SHOWN);
  figures.timeline_answered_ms = await now(page);
  figures.interactive_ms = Math.max(figures.graph_answered_ms, figures.timeline_answered_ms);
  await page.locator('[data-testid="run-screen"][data-events="ended"]').waitFor({ timeout: 120_000 });
  figures.events_read_ms = await now(page);
  const tasks = await page.evaluate(() => window.__longTasks ?? null);
  if (tasks !== null) {
    figures.long_tasks = tasks.length;
    figures.long_task_total_ms = Math.round(tasks.reduce((sum, t) => sum + t.duration, 0));
    figures.long_task_max_ms = Math.round(Math.max(0, ...tasks.map((t) => t.duration)));
    figures.long_task_before_interactive_ms = Math.round(
      tasks.filter((t) => t.start < figures.interactive_ms).reduce((sum, t) => sum + t.duration, 0),
    );
  }
  figures.bars_in_page = await page.locator('[data-testid="timeline-bar"]').count();
  return figures;
}

/** Opens the run ROUNDS times; the medians of every figure, and the samples. */
async function measure(page, base, id, node) {
  const samples = [];
  for (let round = 0; round < ROUNDS; round++) samples.push(await openAndTime(page, base, id, node));
  const medians = {};
  for (const key of Object.keys(samples[0])) medians[key] = median(samples.map((s) => s[key]));
  return { medians, samples };
}

/** The x (viewport px) where time `t` (ms since the run's start) is on the timeline's track now. */
async function xOfTime(page, t) {
  return page.evaluate((time) => {
    const frame = document.querySelector('.run-timeline__frame');
    const track = document.querySelector('.run-timeline__track').getBoundingClientRect();
    const style = getComputedStyle(frame);
    const offset = Number(style.getPropertyValue('--tl-offset'));
    const scale = Number(style.getPropertyValue('--tl-scale'));
    return track.left + (time - offset) * scale;
  }, t);
}

/** Zooms (wheel over the axis) around `stage`'s start until its bar is drawn wide enough to click. */
async function zoomTo(page, stage) {
  const bar = page.locator(`[data-testid="timeline-bar"][data-node="${stage.node}"][data-visit="${stage.visit}"]`);
  const axis = await page.locator('.timeline-axis').boundingBox();
  for (let i = 0; i < 60; i++) {
    if ((await bar.count()) === 1 && ((await bar.boundingBox())?.width ?? 0) >= 8) return bar;
    const x = await xOfTime(page, stage.at + 5);
    await page.mouse.move(x, axis.y + axis.height / 2);
    await page.mouse.wheel(0, -400);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  throw new Error(`the bar of ${stage.node} visit ${stage.visit} was never drawn wide enough to click`);
}

describe('runs screen on 20,000-stage runs', () => {
  const env = serverAndBrowser('runs-long');
  const figures = {};

  test(`a test → fix loop of ${STAGES} stages`, { timeout: 900_000 }, async (t) => {
    const { server } = env;
    const loop = finishedRun(server.home, 'LP', loopDot('Loop'), loopVisits(STAGES - 1));
    const small = finishedRun(server.home, 'SL', loopDot('Small'), loopVisits(5));
    figures.loop_indexed_ms = await indexed(server, loop.id, loop.stages.length);
    await indexed(server, small.id, small.stages.length);

    const { page, context, pageErrors } = await openPage(env.browser);
    await page.addInitScript(recordLongTasks);
    try {
      // Warm-up (the bundle and its chunks), and the small run as the baseline.
      await openAndTime(page, server.url, small.id, 'fix');
      const baseline = await measure(page, server.url, small.id, 'fix');
      const measured = await measure(page, server.url, loop.id, 'fix');
      figures.loop = { stages: loop.stages.length, events: loop.events, ...measured.medians, samples: measured.samples };
      figures.small_loop = baseline.medians;
      writeFileSync(join(screenshotDir, 'runs-long.json'), `${JSON.stringify(figures, null, 2)}\n`);
      await page.screenshot({ path: join(screenshotDir, 'runs-long-loop.png') });

      // Only a window of the run's bars is in the page.
      const bars = await page.locator('[data-testid="timeline-bar"]').count();
      assert.ok(bars < MAX_BARS_IN_PAGE, `${bars} bars in the page for ${loop.stages.length} stages`);

      // The 15,000th stage: zoomed to, clicked, shown.
      await page.locator('[data-testid="run-timeline"]').getByRole('button', { name: 'Fit', exact: true }).click();
      const deep = loop.stages[15_000];
      const bar = await zoomTo(page, deep);
      await bar.click();
      const detail = page.locator(`[data-testid="stage-detail"][data-node="${deep.node}"]`);
      await detail.waitFor();
      assert.equal(await bar.getAttribute('aria-current'), 'true');
      await page.screenshot({ path: join(screenshotDir, 'runs-long-loop-deep.png') });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
    t.diagnostic(JSON.stringify({ loop: { ...figures.loop, samples: undefined }, small_loop: figures.small_loop }));
  });

  test(`a chain of ${STAGES} nodes`, { timeout: 900_000 }, async (t) => {
    const { server } = env;
    const nodes = Array.from({ length: STAGES }, (_, i) => ({ node: `n${i}`, visit: 1, status: 'success' }));
    const chain = finishedRun(server.home, 'CH', chainDot('Chain', STAGES), nodes, STAGES);
    figures.chain_indexed_ms = await indexed(server, chain.id, chain.stages.length);
    const { page, context, pageErrors } = await openPage(env.browser);
    await page.addInitScript(recordLongTasks);
    try {
      const measured = await measure(page, server.url, chain.id, 'n0');
      // A graph this large is laid out by the layered engine's own worker, off the page: its
      // measures (of the last opening) name the layout and its time.
      const layoutWorkers = page.workers().filter((worker) => worker.url().includes('layeredWorker'));
      const layouts = (
        await Promise.all(layoutWorkers.map((worker) => worker.evaluate(() => performance.getEntriesByType('measure').map((m) => ({ name: m.name, ms: Math.round(m.duration) })))))
      ).flat();
      const chainLayout = layouts.find((layout) => layout.name === `layered layout of ${STAGES + 2} nodes`);
      figures.chain = {
        stages: chain.stages.length,
        events: chain.events,
        ...measured.medians,
        worker_layout_ms: chainLayout?.ms ?? null,
        samples: measured.samples,
      };
      writeFileSync(join(screenshotDir, 'runs-long.json'), `${JSON.stringify(figures, null, 2)}\n`);
      await page.screenshot({ path: join(screenshotDir, 'runs-long-chain.png') });
      const bars = await page.locator('[data-testid="timeline-bar"]').count();
      assert.ok(bars < MAX_BARS_IN_PAGE, `${bars} bars in the page for ${chain.stages.length} stages`);
      assert.ok(chainLayout !== undefined, `the chain was laid out in the layout worker: ${JSON.stringify(layouts)}`);
      // The graph's overview is one outline, not an element per node.
      assert.ok(await page.getByRole('img', { name: 'Workflow overview' }).isVisible(), 'the overview shows the whole graph');
      assert.equal(await page.locator('.react-flow__minimap-node').count(), 0);

      // The canvas holds only the nodes near the view, and follows the view: a click on the
      // overview's far end of the chain moves there, and the nodes drawn there carry their status.
      const drawnIds = () => page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')));
      const opening = await drawnIds();
      assert.ok(opening.includes('n0'), 'the start of the chain is drawn at first');
      assert.ok(opening.length < MAX_BARS_IN_PAGE, `${opening.length} graph nodes in the page for ${STAGES}`);
      // The outline's path is made in a task after the graph's first frame (d="" until then).
      const outlinePath = page.locator('.overview-outline__nodes[d]:not([d=""])');
      await outlinePath.waitFor({ state: 'visible', timeout: 60_000 });
      const outline = await outlinePath.boundingBox();
      await page.mouse.click(outline.x + outline.width - 2, outline.y + outline.height / 2);
      await waitFor(page, `[...document.querySelectorAll('.react-flow__node')].some((n) => Number(n.dataset.id.slice(1)) > ${STAGES / 2})`);
      await waitFor(page, DRAWN_MARKED);
      const far = await drawnIds();
      assert.ok(!far.includes('n0'), 'the start is no longer drawn once the view moved away');
      assert.ok(far.length < MAX_BARS_IN_PAGE, `${far.length} graph nodes in the page for ${STAGES}`);
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
    t.diagnostic(JSON.stringify({ chain: { ...figures.chain, samples: undefined } }));
  });
});
