// Cancelling from the run queue, against the real `heddle serve` and a real `heddle worker`
// on one run index: an entry still waiting is taken off the queue (no worker runs it), and
// the entry a worker holds has its run cancelled, after which the worker finishes the entry.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { startWorker, teamRepository } from './support/teamQueue.mjs';

const LONG = 60_000;

const FLOW = `digraph Hold {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  hold [shape=parallelogram, script="sleep 60"];
  start -> hold -> exit;
}
`;

/** Polls `run_queue` until `entry` is finished; the entry. */
async function finishedEntry(server, entry) {
  const deadline = Date.now() + LONG;
  for (;;) {
    const { entries } = await server.call('run_queue', { finished: 20 });
    const found = entries.find((e) => e.id === entry);
    if (found?.state === 'finished') return found;
    if (Date.now() > deadline) throw new Error(`entry ${entry} did not finish: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('run queue cancel', () => {
  const env = serverAndBrowser('queue-cancel');

  test('a waiting entry is taken off the queue and a held one has its run cancelled', { timeout: 300_000 }, async () => {
    const { repo, remote } = teamRepository(env.tempDir, { 'flows/hold.dot': FLOW });
    const flow = join(repo, 'flows', 'hold.dot');
    const { page, pageErrors, context } = await openPage(env.browser);
    let worker = null;
    const shot = (name) => page.screenshot({ path: join(screenshotDir, `run-queue-cancel-${name}.png`) });
    try {
      const first = await env.server.call('enqueue_run', { workflow_path: flow, trust: true, goal: 'Runs, then is cancelled' });
      const second = await env.server.call('enqueue_run', { workflow_path: flow, trust: true, goal: 'Never runs' });
      const url = new URL(env.server.url);
      url.searchParams.set('runs', '');
      await page.goto(url.toString());
      const queue = page.getByTestId('run-queue');
      const row = (id) => queue.locator(`[data-testid="queue-entry"][data-entry-id="${id}"]`);
      await row(second.id).waitFor({ timeout: LONG });
      await shot('waiting');

      // The second entry, waiting, is taken off the queue.
      const cancelWaiting = row(second.id).getByTestId('queue-entry-cancel');
      assert.equal(await cancelWaiting.innerText(), 'Cancel');
      await cancelWaiting.click();
      await row(second.id).waitFor({ state: 'detached', timeout: LONG });
      const cancelled = await finishedEntry(env.server, second.id);
      assert.equal(cancelled.outcome, 'cancelled');
      assert.equal(cancelled.run_id, null, 'it never ran');
      assert.equal(await queue.getByTestId('queue-summary').innerText(), '1 queued');

      // A worker takes the first and sleeps in its stage; cancelling it cancels the run.
      worker = startWorker(env.server.home, remote, { name: 'cancel-worker' });
      const held = queue.locator(`[data-testid="queue-entry"][data-entry-id="${first.id}"][data-state="claimed"]`);
      const cancelRun = held.getByTestId('queue-entry-cancel');
      await cancelRun.waitFor({ timeout: LONG }).catch((e) => {
        throw new Error(`${e.message}\nworker output:\n${worker.output()}`);
      });
      assert.equal(await cancelRun.innerText(), 'Cancel run');
      await shot('held');
      await cancelRun.click();
      const ended = await finishedEntry(env.server, first.id);
      assert.equal(ended.outcome, 'cancelled', worker.output());
      assert.ok(ended.run_id, 'its run had started');
      await row(first.id).waitFor({ state: 'detached', timeout: LONG });
      const run = await env.server.call('get_run', { run_id: ended.run_id });
      assert.equal(run.status, 'cancelled');
      assert.equal(await page.getByTestId('queue-cancel-error').count(), 0);
      await shot('done');
      assert.deepEqual(pageErrors, []);
    } finally {
      await worker?.kill();
      await context.close();
    }
  });
});
