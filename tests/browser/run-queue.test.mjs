// The run queue in the runs list, against the real `heddle serve` and a real `heddle worker`
// on the same run index: two runs queued through the API, the worker holds the first (a
// stage that sleeps) while the second waits; the queue section shows both and the worker,
// the held entry opens its run, and once the worker is killed its lease runs out and the
// entry is shown as lost. Before anything is queued the runs list shows no queue at all.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { startWorker, teamRepository } from './support/teamQueue.mjs';

const LONG = 60_000;
/** The worker's lease, in seconds (its default): a killed worker's entry is lost this long after its last heartbeat. */
const LEASE = 30;

const FLOW = `digraph Hold {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  hold [shape=parallelogram, script="sleep 30"];
  start -> hold -> exit;
}
`;

/** Text with its runs of white space (line breaks between flex items included) as one space. */
const words = (text) => text.replace(/\s+/g, ' ').trim();

describe('run queue', () => {
  const env = serverAndBrowser('queue');

  test('the runs list shows queued runs, the worker holding one, and the workers', { timeout: 300_000 }, async () => {
    const { repo, remote } = teamRepository(env.tempDir, { 'flows/hold.dot': FLOW });
    const flow = join(repo, 'flows', 'hold.dot');
    const { page, pageErrors, context } = await openPage(env.browser);
    let worker = null;
    const shot = (target, name) => target.screenshot({ path: join(screenshotDir, `run-queue-${name}.png`) });
    /** Opens `url` in the dark theme and takes screenshot `name` once `selector` shows. */
    const darkShot = async (url, selector, name) => {
      const dark = await openPage(env.browser, { colorScheme: 'dark' });
      try {
        await dark.page.goto(url.toString());
        await dark.page.locator(selector).waitFor({ timeout: LONG });
        await shot(dark.page, name);
        assert.deepEqual(dark.pageErrors, []);
      } finally {
        await dark.context.close();
      }
    };
    try {
      // One person, no queue: the runs list looks as it always did.
      const url = new URL(env.server.url);
      url.searchParams.set('runs', '');
      const firstQueueRead = page.waitForResponse((response) => response.url().endsWith('/api/run_queue'));
      await page.goto(url.toString());
      await page.getByTestId('runs-list').waitFor({ timeout: LONG });
      assert.equal((await firstQueueRead).status(), 200);
      assert.equal(await page.getByTestId('run-queue').count(), 0, 'no queue section without entries or workers');

      // Two entries; the worker claims the older one and sleeps in its stage, the other waits.
      const held = await env.server.call('enqueue_run', { workflow_path: flow, trust: true, labels: { suite: 'queue' } });
      const waiting = await env.server.call('enqueue_run', { workflow_path: flow, trust: true, goal: 'Waits its turn' });
      worker = startWorker(env.server.home, remote, { name: 'ui-worker', lease: LEASE });

      const queue = page.getByTestId('run-queue');
      const heldRow = queue.locator(`[data-testid="queue-entry"][data-entry-id="${held.id}"]`);
      const waitingRow = queue.locator(`[data-testid="queue-entry"][data-entry-id="${waiting.id}"]`);
      // Held, and its run started (the workflow then opens the run).
      const entryRow = (id, state) => queue.locator(`[data-testid="queue-entry"][data-entry-id="${id}"][data-state="${state}"]`);
      await entryRow(held.id, 'claimed').waitFor({ timeout: LONG }).catch((e) => {
        throw new Error(`${e.message}\nworker output:\n${worker.output()}`);
      });
      const openHeld = heldRow.getByRole('button', { name: 'flows/hold.dot' });
      await openHeld.waitFor({ timeout: LONG });

      assert.equal(await waitingRow.getAttribute('data-state'), 'queued');
      assert.match(words(await heldRow.getByTestId('queue-entry-worker').innerText()), /^ui-worker heartbeat (just now|\d+ s ago)$/);
      assert.equal((await waitingRow.getByTestId('queue-entry-worker').innerText()).trim(), '–');
      await waitingRow.getByText('Waits its turn').waitFor();
      await heldRow.getByText('suite=queue').waitFor();
      assert.equal(await queue.getByTestId('queue-summary').innerText(), '1 claimed, 1 queued');

      const workerItem = queue.locator('[data-testid="queue-worker"][data-worker="ui-worker"]');
      assert.equal(await workerItem.getAttribute('data-health'), 'alive');
      assert.match(await workerItem.getByTestId('queue-worker-seen').innerText(), /^seen (just now|\d+ s ago)$/);
      assert.equal(words(await workerItem.getByTestId('queue-worker-work').innerText()), 'on flows/hold.dot');
      await workerItem.getByText(remote).waitFor();
      await shot(page, 'light');

      // The same in the dark theme.
      await darkShot(url, '[data-testid="queue-entry"][data-state="claimed"] button.runs-table__open', 'dark');

      // The held entry opens its run, as a run's row does.
      const { entries } = await env.server.call('run_queue', { finished: 0 });
      const runId = entries.find((entry) => entry.id === held.id)?.run_id;
      assert.ok(runId, 'the worker recorded the run it started');
      await openHeld.click();
      await page.getByTestId('run-screen').waitFor({ timeout: LONG });
      assert.equal(new URL(page.url()).searchParams.get('run'), runId);
      await page.locator('[data-testid="run-header"][data-status="running"]').waitFor({ timeout: LONG });
      await shot(page, 'run');

      // The worker dies: once its lease runs out the entry waits for another worker.
      await worker.kill();
      await page.getByRole('button', { name: 'Runs', exact: true }).click();
      const lost = entryRow(held.id, 'lost');
      await lost.waitFor({ timeout: (LEASE + 15) * 1000 });
      assert.match(
        words(await lost.getByTestId('queue-entry-worker').innerText()),
        /^ui-worker worker lost — waiting for another worker last heartbeat \d+ s ago$/,
      );
      // Its worker, heard from within the stale limit, is shown as having lost its lease.
      assert.equal(await workerItem.getAttribute('data-health'), 'lost');
      assert.match(await workerItem.getByTestId('queue-worker-seen').innerText(), /^lost its lease, seen \d+ s ago$/);
      assert.equal(await queue.getByTestId('queue-summary').innerText(), '1 worker lost, 1 queued');
      await shot(page, 'lost');
      await darkShot(url, '[data-testid="queue-entry"][data-state="lost"]', 'lost-dark');
      assert.deepEqual(pageErrors, []);
    } finally {
      await worker?.kill();
      await context.close();
    }
  });
});
