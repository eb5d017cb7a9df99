// What a person sees around a run, against the real `heddle serve`: the Start-run dialog as a
// form, the gate dock's keys, the stage panel beside the graph and timeline (resizable, its
// width remembered), a long log line reachable by scrolling and a table in a rendered
// response. Screenshots of each go to test-output/browser/run-screens-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';

const LONG = 60_000;
const RUN_TIMEOUT = 180_000;

// A prompt stage (simulated: dry run), a command printing one 430-character line then 300
// short ones (and writing
// a file with a 320-character one), a gate with
// accelerator keys and a gate that only takes written answers.
const FLOW = `digraph Screens {
  graph [goal="Check what a person sees around a run"];
  start  [shape=Mdiamond];
  exit   [shape=Msquare];
  draft  [shape=tab, label="Draft", prompt="Summarise the plan as a table."];
  setup  [shape=parallelogram, label="Print a long line", script="printf 'LOG-START-%0400d' 0; echo '-LOG-END {{ inputs.ticket }}'; seq 1 300; printf 'DIFF-START-%0300d' 0 > long.txt; echo '-DIFF-END' >> long.txt"];
  review [shape=hexagon, label="Ship it?"];
  note   [shape=hexagon, label="Anything to add?"];
  start -> draft -> setup -> review;
  review -> note  [label="[A] Approve"];
  review -> setup [label="[R] Revise"];
  note -> exit    [freeform=true];
}
`;

// What the draft stage "answered": written over the simulated reply once the run is done.
const RESPONSE = `## Plan

| Step | Owner | Cost |
|:-----|:------|-----:|
| Draft | model | $0.10 |
| Review | person | $0.00 |

- [x] drafted
- [ ] ~~shipped~~

<script>window.__injected = true</script>
<img src=x onerror="window.__injected = true">
`;

/** Selects a stage by its timeline bar (by keyboard: a stage of a few milliseconds is a sliver). */
async function selectStage(page, node) {
  const bar = page.locator(`[data-testid="timeline-bar"][data-node="${node}"]`).first();
  await bar.focus();
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="stage-detail"][data-node="${node}"]`).waitFor();
}

/** Whether two boxes overlap (touching edges do not count). */
function overlaps(a, b) {
  return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

describe('run screens', () => {
  const env = serverAndBrowser('screens');

  test('dialog form, gate keys, stage panel beside the graph, long log lines, tables', { timeout: 420_000 }, async () => {
    const flow = join(env.tempDir, 'screens.dot');
    writeFileSync(flow, FLOW);
    const work = join(env.tempDir, 'work');
    mkdirSync(work, { recursive: true });
    const { page, pageErrors, context } = await openPage(env.browser);
    const shot = (name) => page.screenshot({ path: join(screenshotDir, `run-screens-${name}.png`) });
    try {
      const url = new URL(env.server.url);
      url.searchParams.set('file', flow);
      await page.goto(url.toString());
      await page.locator('[data-node-id="setup"]').waitFor({ timeout: LONG });

      // (1) The Start-run dialog is a form: a label for every field, the goal full width.
      await page.getByTestId('run-button').click();
      const dialog = page.getByRole('dialog', { name: 'Start a run' });
      await dialog.getByTestId('run-inputs').waitFor({ timeout: LONG });
      await dialog.getByTestId('trust-summary').waitFor({ timeout: LONG });
      const goal = dialog.getByLabel('Goal', { exact: true });
      const fields = {
        Labels: dialog.getByLabel('Labels', { exact: true }),
        'Work folder': dialog.getByLabel('Work folder', { exact: true }),
        ticket: dialog.getByLabel('ticket', { exact: true }),
      };
      assert.equal(await goal.inputValue(), 'Check what a person sees around a run');
      const dialogBox = await dialog.boundingBox();
      const goalBox = await goal.boundingBox();
      const padding = await dialog.evaluate((el) => Number.parseFloat(getComputedStyle(el).paddingLeft));
      assert.ok(Math.abs(goalBox.x - (dialogBox.x + padding)) <= 2, `the goal starts at the dialog's left edge: ${JSON.stringify({ goalBox, dialogBox })}`);
      assert.ok(goalBox.width >= dialogBox.width - 2 * padding - 4, `the goal spans the dialog: ${goalBox.width} of ${dialogBox.width}`);
      assert.ok(goalBox.height >= 60, `the goal has room for three lines: ${goalBox.height}px`);
      const goalLabel = await dialog.locator('label[for="run-goal"]').boundingBox();
      assert.ok(goalLabel.y + goalLabel.height <= goalBox.y + 1, 'the goal label is above the goal');
      for (const [name, field] of Object.entries(fields)) {
        const box = await field.boundingBox();
        const id = await field.getAttribute('id');
        const label = await dialog.locator(`label[for="${id}"]`).boundingBox();
        assert.ok(label !== null, `${name} has its own label`);
        assert.ok(label.x + label.width <= box.x, `${name}'s label is left of its field`);
        assert.ok(label.y < box.y + box.height && box.y < label.y + label.height, `${name}'s label is on its field's row`);
        assert.ok(!overlaps(box, goalBox), `${name} does not run into the goal`);
        assert.ok(box.width >= 300, `${name} has room: ${box.width}px`);
      }
      await shot('start-dialog');

      await fields['Work folder'].fill(work);
      await fields.ticket.fill('T-7');
      await dialog.getByLabel(/Dry run/).check();
      await dialog.getByLabel('Trust this workflow and run').check();
      await dialog.getByRole('button', { name: 'Start run' }).click();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG });
      const runId = new URL(page.url()).searchParams.get('run');

      // (2) The gate dock shows each key once: in its box, not again in the text.
      const dock = page.getByTestId('gate-dock');
      await dock.waitFor({ timeout: RUN_TIMEOUT });
      const approve = dock.getByRole('button', { name: 'A Approve', exact: true });
      await approve.waitFor();
      assert.equal((await approve.textContent()).trim(), 'A Approve');
      assert.equal(await approve.locator('kbd').textContent(), 'A');
      assert.equal((await dock.getByRole('button', { name: 'R Revise', exact: true }).textContent()).trim(), 'R Revise');
      assert.equal(await dock.getByText('[A]').count(), 0, 'no "[A]" left in the dock');
      await shot('gate');
      await page.keyboard.press('a');

      // A gate that only takes written text does not say "Or …".
      await dock.getByText('note asks').waitFor({ timeout: LONG });
      const answer = dock.getByLabel('Your answer');
      assert.equal(await answer.getAttribute('placeholder'), 'Write your answer…');
      assert.equal(await dock.getByRole('button').filter({ has: page.locator('kbd') }).count(), 0);
      await shot('gate-freeform');
      await answer.fill('Looks good');
      await dock.getByRole('button', { name: 'Send' }).click();
      await page.locator('[data-testid="run-header"][data-status="success"]').waitFor({ timeout: RUN_TIMEOUT });

      // (3) The stage panel shares the width with the graph and the timeline.
      await selectStage(page, 'setup');
      const side = page.getByTestId('run-side');
      const graphArea = page.locator('.run-overview__graph');
      const timelineArea = page.locator('.run-overview__timeline');
      let sideBox = await side.boundingBox();
      assert.ok(!overlaps(sideBox, await graphArea.boundingBox()), 'the panel does not cover the graph');
      assert.ok(!overlaps(sideBox, await timelineArea.boundingBox()), 'the panel does not cover the timeline');
      const viewport = page.viewportSize();
      assert.ok(Math.abs(sideBox.x + sideBox.width - viewport.width) <= 1, 'the panel is on the right edge');
      await shot('stage-panel');

      // Dragging the splitter widens it; the width is there again after a reload.
      const splitter = page.getByTestId('run-splitter');
      const bar = await splitter.boundingBox();
      const before = sideBox.width;
      await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
      await page.mouse.down();
      await page.mouse.move(bar.x + bar.width / 2 - 80, bar.y + bar.height / 2, { steps: 4 });
      await page.mouse.move(bar.x + bar.width / 2 - 160, bar.y + bar.height / 2, { steps: 4 });
      await page.mouse.up();
      sideBox = await side.boundingBox();
      assert.ok(Math.abs(sideBox.width - (before + 160)) <= 2, `dragged 160px wider: ${before} -> ${sideBox.width}`);
      assert.ok(!overlaps(sideBox, await graphArea.boundingBox()), 'still beside the graph');
      const dragged = sideBox.width;
      await page.reload();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG });
      await selectStage(page, 'setup');
      sideBox = await side.boundingBox();
      assert.ok(Math.abs(sideBox.width - dragged) <= 1, `the width is remembered: ${dragged} then ${sideBox.width}`);
      // In a window too narrow for that width, the panel gives way: the graph keeps its
      // 360 px from the moment the panel opens, and again as the window narrows further.
      const wide = page.viewportSize();
      await page.setViewportSize({ width: 900, height: wide.height });
      await page.reload();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG });
      await selectStage(page, 'setup');
      sideBox = await side.boundingBox();
      assert.ok(Math.abs(sideBox.width - (900 - 360)) <= 1, `clamped to leave the graph 360 px of 900: ${sideBox.width}`);
      assert.ok(!overlaps(sideBox, await graphArea.boundingBox()), 'beside the graph in a narrow window');
      // The splitter knows the bounds too (what a keyboard or screen reader is told).
      const splitterSays = (width) =>
        page.waitForFunction(
          (w) => {
            const bar = document.querySelector('[data-testid="run-splitter"]');
            return Math.abs(Number(bar.getAttribute('aria-valuenow')) - w) <= 1 && Math.abs(Number(bar.getAttribute('aria-valuemax')) - w) <= 1;
          },
          width,
          { timeout: LONG },
        );
      await splitterSays(900 - 360);
      await page.setViewportSize({ width: 800, height: wide.height });
      await splitterSays(800 - 360);
      await page.setViewportSize(wide);
      await page.waitForFunction((w) => Math.abs(document.querySelector('[data-testid="run-side"]').getBoundingClientRect().width - w) <= 1, dragged);
      assert.equal(Number(await splitter.getAttribute('aria-valuenow')), Math.round(dragged));

      // (4) A long log line can be scrolled to its end.
      await page.getByTestId('stage-detail').getByRole('tab', { name: 'stdout', exact: true }).click();
      const log = page.getByTestId('log-view');
      await log.getByText(/LOG-START/).waitFor({ timeout: LONG });
      assert.equal(await log.getAttribute('data-lines'), '301');
      const reach = await log.evaluate(async (view) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
        // Scrolled down to where the long line is no longer drawn, the view is still as wide.
        view.scrollTop = view.scrollHeight;
        await frame();
        await frame();
        const atBottom = { scroll: view.scrollWidth, client: view.clientWidth };
        view.scrollTop = 0;
        await frame();
        await frame();
        view.scrollLeft = view.scrollWidth;
        const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const at = node.textContent.indexOf('-LOG-END');
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + '-LOG-END T-7'.length);
          const end = range.getBoundingClientRect();
          const box = view.getBoundingClientRect();
          return { atBottom, endLeft: end.left, endRight: end.right, viewLeft: box.left, viewRight: box.right };
        }
        return null;
      });
      assert.ok(reach !== null, 'the line end is in the page');
      assert.ok(reach.atBottom.scroll > reach.atBottom.client, `the log scrolls sideways wherever it is scrolled to: ${JSON.stringify(reach)}`);
      assert.ok(reach.endLeft >= reach.viewLeft && reach.endRight <= reach.viewRight, `the line's end is visible once scrolled: ${JSON.stringify(reach)}`);
      await shot('long-log-line');

      // ... and a long line of its diff wraps inside the panel.
      await page.getByTestId('stage-detail').getByRole('tab', { name: 'Diff', exact: true }).click();
      const diffText = page.getByTestId('stage-detail').locator('.diff-line__text', { hasText: 'DIFF-START' });
      await diffText.waitFor({ timeout: LONG });
      const diffBox = await diffText.boundingBox();
      sideBox = await side.boundingBox();
      assert.ok(diffBox.x + diffBox.width <= sideBox.x + sideBox.width, `the diff line stays in the panel: ${JSON.stringify({ diffBox, sideBox })}`);
      assert.ok(diffBox.height > 40, `the 320-character line wraps: ${diffBox.height}px high`);
      await page.getByTestId('stage-detail').getByText('-DIFF-END').waitFor();
      await shot('long-diff-line');

      // (5) A table in a rendered response; the HTML in it stays text.
      const runFolder = readdirSync(join(env.server.home, 'runs')).find((name) => name.endsWith(runId));
      assert.ok(runFolder, `the run folder of ${runId}`);
      writeFileSync(join(env.server.home, 'runs', runFolder, 'nodes', 'draft', 'response.md'), RESPONSE);
      await selectStage(page, 'draft');
      await page.getByTestId('stage-detail').getByRole('tab', { name: 'Response', exact: true }).click();
      const table = page.getByTestId('stage-detail').locator('.markdown table');
      await table.waitFor({ timeout: LONG });
      assert.deepEqual(await table.locator('th').allTextContents(), ['Step', 'Owner', 'Cost']);
      assert.equal(await table.locator('tbody tr').count(), 2);
      assert.equal(await table.locator('td').nth(2).evaluate((td) => getComputedStyle(td).textAlign), 'right');
      const markdown = page.getByTestId('stage-detail').locator('.markdown');
      assert.equal(await markdown.locator('input[type="checkbox"]').count(), 2);
      assert.equal(await markdown.locator('del').textContent(), 'shipped');
      assert.equal(await markdown.locator('script, img').count(), 0, 'no raw HTML became elements');
      await markdown.getByText('<script>window.__injected = true</script>').waitFor();
      assert.equal(await page.evaluate(() => window.__injected ?? false), false);
      await shot('response-table');
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
