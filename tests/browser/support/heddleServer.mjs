// Starts the real `heddle serve` on a free port and stops it again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The URL carries the server's access token; the page keeps it as a cookie after loading.
const READY = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/;

/**
 * Spawns `bin serve --port 0 --workspace <workspace> --ui-dir <uiDir>` and resolves once it
 * prints its URL. Rejects (with the server's output) if it exits or stays silent too long.
 */
export async function startHeddleServer({ bin, workspace, uiDir, timeoutMs = 60_000 }) {
  // Runs and the run index go to a data folder of the test's own, never the user's ~/.heddle.
  const home = mkdtempSync(join(tmpdir(), 'heddle-serve-home-'));
  const child = spawn(bin, ['serve', '--port', '0', '--workspace', workspace, '--ui-dir', uiDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' },
  });
  let output = '';
  let token = '';
  const url = await new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`heddle serve printed no URL within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        token = match[2];
        resolvePromise(match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`heddle serve exited (${code ?? signal}) before it was ready; output:\n${output}`));
    });
  });
  // Keep draining the pipes so the server never blocks on a full one.
  child.stdout.resume();
  child.stderr.resume();

  return {
    url,
    token,
    /** The server's data folder ($HEDDLE_HOME): runs, blobs, the run index. */
    home,
    output: () => output,
    /** Calls one API operation directly, as the UI does. */
    async call(operation, body) {
      const response = await fetch(new URL(`api/${operation}`, url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`${operation} failed (${response.status}): ${JSON.stringify(json)}`);
      return json;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
