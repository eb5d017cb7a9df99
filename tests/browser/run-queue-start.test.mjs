// Queueing a run from the Start-run dialog, against the real `heddle serve` and a real
// `heddle worker` on the same run index. Without a worker the dialog only starts runs here.
// With one alive it offers "Queue for a worker": the work folder no longer applies, trust is
// consented to as for a run here, and "Queue run" takes the person to the runs list, where
// the entry waits or is held by the worker, whose run then shows up there and finishes. A
// workflow outside any git repository cannot be queued, and the dialog says why.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openPage } from './support/chromium.mjs';
import { LONG, openWorkflow } from './support/editorPage.mjs';
import { screenshotDir } from './support/paths.mjs';
import { serverAndBrowser } from './support/suite.mjs';
import { startWorker, teamRepository } from './support/teamQueue.mjs';

const WORKER = 'start-worker';

/** A tiny workflow: one script stage, slow enough for the runs list to see its worker hold it. */
const FLOW = `digraph Queued {
  goal = "Say hello from a worker";
  start [shape=Mdiamond];
  exit [shape=Msquare];
  hello [shape=parallelogram, script="sleep 6; echo hello > hello.txt"];
  start -> hello -> exit;
}
`;

const LOOSE = `digraph Loose {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  hello [shape=parallelogram, script="echo hello"];
  start -> hello -> exit;
}
`;

/** Opens the Start-run dialog of the workflow open on `page` and waits for its read of the queue. */
async function openStartRun(page) {
  const queueRead = page.waitForResponse((response) => response.url().endsWith('/api/run_queue'));
  await page.getByTestId('run-button').click();
  const dialog = page.getByRole('dialog', { name: 'Start a run' });
  await dialog.waitFor({ timeout: LONG });
  assert.equal((await queueRead).status(), 200);
  return dialog;
}

/** Resolves once the server's queue lists worker `name`. */
async function workerReported(server, name, worker) {
  for (let i = 0; i < 240; i++) {
    const { workers } = await server.call('run_queue', { finished: 0 });
    if (workers.some((w) => w.name === name)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`worker ${name} never reported itself; its output:\n${worker.output()}`);
}

describe('queueing a run from the Start-run dialog', () => {
  const env = serverAndBrowser('queue-start');

  test('Run offers "Queue for a worker" while one is alive, and the worker runs it', { timeout: 300_000 }, async () => {
    const { repo, remote } = teamRepository(env.tempDir, { 'flows/queued.dot': FLOW });
    const flow = join(repo, 'flows', 'queued.dot');
    const looseFlow = join(env.tempDir, 'loose', 'loose.dot');
    mkdirSync(join(env.tempDir, 'loose'), { recursive: true });
    writeFileSync(looseFlow, LOOSE);
    const { page, pageErrors, context } = await openPage(env.browser);
    const shot = (name) => page.screenshot({ path: join(screenshotDir, `run-queue-start-${name}.png`) });
    let worker = null;
    try {
      // No worker: the dialog starts runs here only, as it always did.
      await openWorkflow(env, page, flow, 'hello');
      let dialog = await openStartRun(page);
      await dialog.getByLabel('Work folder').waitFor();
      assert.equal(await dialog.getByTestId('run-place').count(), 0, 'no place to choose without a worker');
      assert.equal(await dialog.getByRole('radio', { name: /Queue for a worker/ }).count(), 0);
      await dialog.getByRole('button', { name: 'Start run' }).waitFor();
      await shot('no-worker');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      worker = startWorker(env.server.home, remote, { name: WORKER });
      await workerReported(env.server, WORKER, worker);

      // The choice in the dark theme.
      const dark = await openPage(env.browser, { colorScheme: 'dark' });
      try {
        await openWorkflow(env, dark.page, flow, 'hello');
        const darkDialog = await openStartRun(dark.page);
        await darkDialog.getByRole('radio', { name: /Queue for a worker/ }).check();
        await darkDialog.getByText('A worker runs it in a fresh clone of the team’s remote.').waitFor();
        await dark.page.screenshot({ path: join(screenshotDir, 'run-queue-start-dialog-dark.png') });
        assert.deepEqual(dark.pageErrors, []);
      } finally {
        await dark.context.close();
      }

      // A workflow outside any git repository: the dialog says why it cannot be queued.
      await openWorkflow(env, page, looseFlow, 'hello');
      dialog = await openStartRun(page);
      await dialog.getByRole('radio', { name: /Queue for a worker/ }).check();
      await dialog.getByLabel('Trust this workflow and run').check();
      await dialog.getByRole('button', { name: 'Queue run' }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor({ timeout: LONG });
      const refused = await refusal.innerText();
      assert.match(refused, /is not in a git repository/);
      assert.ok(refused.includes(looseFlow), `the refusal names the file: ${refused}`);
      await dialog.getByRole('button', { name: 'Queue run' }).waitFor();
      await shot('not-in-git');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The committed workflow, queued for the worker.
      await openWorkflow(env, page, flow, 'hello');
      dialog = await openStartRun(page);
      const choice = dialog.getByTestId('run-place');
      assert.equal(await choice.getByRole('radio', { name: 'Run here' }).isChecked(), true, 'running here stays the default');
      await choice.getByText('1 worker alive').waitFor();
      const workFolder = dialog.getByLabel('Work folder');
      await workFolder.fill(join(env.tempDir, 'not-used'));
      await choice.getByRole('radio', { name: /Queue for a worker/ }).check();
      assert.equal(await workFolder.isDisabled(), true, 'the work folder does not apply to a worker');
      await dialog.getByText('A worker runs it in a fresh clone of the team’s remote.').waitFor();
      // The same consent as for a run here.
      const queueRun = dialog.getByRole('button', { name: 'Queue run' });
      await dialog.getByTestId('trust-summary').getByText('Runs the shell script of').first().waitFor();
      assert.equal(await queueRun.isDisabled(), true, 'Queue run waits for consent');
      await dialog.getByLabel('Labels').fill('suite=queue-start');
      await dialog.getByLabel('Trust this workflow and run').check();
      await shot('dialog');
      const enqueued = page.waitForResponse((response) => response.url().endsWith('/api/enqueue_run'));
      await queueRun.click();
      const entry = await (await enqueued).json();
      assert.ok(entry.id, `enqueue_run answered an entry: ${JSON.stringify(entry)}`);

      // The runs list, with the entry waiting or already held by the worker.
      await page.getByTestId('runs-list').waitFor({ timeout: LONG });
      assert.equal(await page.getByRole('dialog', { name: 'Start a run' }).count(), 0, 'the dialog closed');
      assert.equal(new URL(page.url()).searchParams.has('runs'), true);
      const queue = page.getByTestId('run-queue');
      const row = queue.locator(`[data-testid="queue-entry"][data-entry-id="${entry.id}"]`);
      await row.waitFor({ timeout: LONG });
      assert.match(await row.getAttribute('data-state'), /^(queued|claimed)$/);
      await row.getByText('flows/queued.dot').waitFor();
      await row.getByText('suite=queue-start').waitFor();
      const held = queue.locator(`[data-testid="queue-entry"][data-entry-id="${entry.id}"][data-state="claimed"]`);
      await held.waitFor({ timeout: LONG }).catch((e) => {
        throw new Error(`${e.message}\nworker output:\n${worker.output()}`);
      });
      assert.match(await held.getByTestId('queue-entry-worker').innerText(), new RegExp(`^${WORKER}`));
      await shot('claimed');

      // The worker's run shows up in the runs list and finishes.
      let runId = null;
      for (let i = 0; i < 240 && runId === null; i++) {
        const { entries } = await env.server.call('run_queue', { finished: 5 });
        runId = entries.find((e) => e.id === entry.id)?.run_id ?? null;
        if (runId === null) await new Promise((done) => setTimeout(done, 250));
      }
      assert.ok(runId, `the worker recorded the run it started; its output:\n${worker.output()}`);
      const run = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
      await run.waitFor({ timeout: LONG });
      await page.locator(`[data-testid="run-row"][data-run-id="${runId}"][data-status="success"]`).waitFor({ timeout: LONG }).catch(async (e) => {
        await shot('failed');
        throw new Error(`${e.message}\nworker output:\n${worker.output()}`);
      });
      await row.waitFor({ state: 'detached', timeout: LONG });
      await shot('finished');
      assert.deepEqual(pageErrors, []);
    } finally {
      await worker?.kill();
      await context.close();
    }
  });
});
