// Desktop integration over the session bus: a second `heddle-desktop FILE` hands its file to
// the running window and exits (single instance), and a run ending while the window is not
// focused (minimized) is announced through org.freedesktop.Notifications (nobody serves it
// on the private bus; dbus-monitor sees the call). Each test has a private
// D-Bus session bus (dbus-daemon), watched with dbus-monitor; screenshots go to
// test-output/desktop/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pageText, repo, savePng, squash, withDesktopApp } from './app-session.mjs';
import { readOutline } from './example.mjs';
import { pollUntil } from './poll.mjs';
import { SessionBus } from './session-bus.mjs';

const CANVAS_TEXT = `
  const canvas = document.querySelector('.react-flow');
  return canvas ? canvas.innerText : null;`;

/** Waits until every node label of the workflow at `path` is drawn on the canvas. */
async function waitForWorkflow(session, path) {
  const { labels } = readOutline(path);
  return pollUntil(
    `the labels of ${path} on the canvas`,
    async () => {
      const text = squash((await session.execute(CANVAS_TEXT)) ?? '');
      return [...labels.values()].every((label) => text.includes(squash(label))) ? text : false;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

function appBinary() {
  if (process.env.HEDDLE_DESKTOP_BIN) return resolve(process.env.HEDDLE_DESKTOP_BIN);
  return join(resolve(repo, process.env.CARGO_TARGET_DIR ?? 'target'), 'debug', 'heddle-desktop');
}

/** Runs `heddle-desktop ...args` in `cwd` and waits for it to exit; its exit and output. */
async function secondLaunch(args, cwd, env) {
  const child = spawn(appBinary(), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, signal, output };
}

/** The environment of the app under test: the private bus. */
function appEnv(bus) {
  return { DBUS_SESSION_BUS_ADDRESS: bus.address };
}

test('a second launch with a file opens it in the running window and exits', { timeout: 300_000 }, async (t) => {
  const examples = join(repo, 'examples');
  const first = join(examples, 'hello.dot');
  const second = join(examples, 'review-gate.dot');
  const scratch = mkdtempSync(join(tmpdir(), 'heddle-single-instance-'));
  const bus = await SessionBus.start();
  try {
    const env = appEnv(bus);
    await withDesktopApp(
      'single-instance',
      [first],
      async (session) => {
        await waitForWorkflow(session, first);
        // Relative to the second process's folder, as a file manager or a shell would pass it.
        // Its own data folder: it opens one before it finds the running app.
        const secondEnv = { ...process.env, ...env, HEDDLE_HOME: join(scratch, 'second-home') };
        const launched = await secondLaunch(['review-gate.dot'], examples, secondEnv);
        assert.deepEqual(
          [launched.code, launched.signal],
          [0, null],
          `the second heddle-desktop did not hand over and exit cleanly: ${launched.output}`,
        );
        await waitForWorkflow(session, second);
        const text = await pageText(session);
        assert.ok(text.includes('review-gate.dot'), `the top bar names the file: ${text.slice(0, 300)}`);
        // Still the first app's only window.
        assert.equal((await session.command('GET', '/window/handles')).length, 1);
        t.diagnostic(`screenshot ${savePng('single-instance', await session.screenshot())}`);

        // Without a file the second launch only brings the window forward.
        const bare = await secondLaunch([], scratch, secondEnv);
        assert.deepEqual([bare.code, bare.signal], [0, null], bare.output);
        await waitForWorkflow(session, second);
      },
      { env },
    );
  } finally {
    await bus.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
});

const FLOW = `digraph Notified {
    start [shape=Mdiamond]; exit [shape=Msquare];
    work [shape=parallelogram, script="echo done"];
    start -> work -> exit;
}`;

/** In the page: starts a run through the window's own Tauri command; resolves to its id. */
const START_RUN = `
  return window.__TAURI_INTERNALS__
    .invoke('start_run', { req: arguments[0] })
    .then((started) => started.run_id, (error) => 'error: ' + JSON.stringify(error));`;

test('a run ending while the window is in the background is announced', { timeout: 300_000 }, async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'heddle-notify-'));
  const work = join(scratch, 'work');
  const bus = await SessionBus.start();
  const monitor = await bus.monitor(["interface='org.freedesktop.Notifications'"]);
  try {
    const env = appEnv(bus);
    await withDesktopApp(
      'notification',
      [],
      async (session) => {
        await pollUntil('the window to start', async () => (await pageText(session)).length > 0, { timeoutMs: 120_000 });
        // In the background: minimized, the window has no focus.
        await session.command('POST', '/window/minimize', {}).catch(() => undefined);
        mkdirSync(work);
        writeFileSync(join(work, 'notified.dot'), FLOW);
        const runId = await session.execute(START_RUN, [
          { workflow_path: join(work, 'notified.dot'), work_dir: work, checkpoints: 'none', trust: true },
        ]);
        assert.ok(!String(runId).startsWith('error'), `start_run: ${runId}`);
        t.diagnostic(`run ${runId}; page has focus: ${await session.execute('return document.hasFocus();')}`);
        const call = await pollUntil(
          'a Notify call on the session bus',
          () => {
            const at = monitor.text.indexOf('member=Notify');
            return at >= 0 ? monitor.text.slice(at, at + 1500) : false;
          },
          { timeoutMs: 60_000, intervalMs: 250 },
        ).catch((error) => {
          throw new Error(`${error.message}\nbus messages: ${monitor.text.split('\n').filter((l) => /member=|string "/.test(l)).slice(-40).join('\n')}`);
        });
        t.diagnostic(`dbus-monitor saw: ${call.slice(0, 600)}`);
        // Notify(app_name, replaces_id, icon, summary, body, ...): the title, then the body.
        assert.match(call, /string "Notified finished"\n\s*string "3 stages in \d+ s\."/);
      },
      { env },
    );
  } finally {
    await bus.stop(monitor);
    rmSync(scratch, { recursive: true, force: true });
  }
});
