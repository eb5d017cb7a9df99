// Starts the real `heddle serve` on a free port and stops it again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The first line is the one-time launch link (it never carries the access token), the second
// the access token for scripts.
const READY = /(http:\/\/127\.0\.0\.1:(\d+)\/)\?launch=([0-9a-f]+)[^]*Bearer ([0-9a-f]+)`/;

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
  let port = '';
  let launchUrl = '';
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
        port = match[2];
        launchUrl = `${match[1]}?launch=${match[3]}`;
        token = match[4];
        resolvePromise(match[1]);
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

  const cookieName = `heddle_token_${port}`;
  return {
    /** The server's address, without any credential: open it in a signed-in context. */
    url,
    /** The one-time link `heddle serve` printed: the first browser to open it is signed in. */
    launchUrl,
    token,
    cookieName,
    /** Signs a browser context in, as opening the launch link does (the same cookie). */
    async signIn(context) {
      await context.addCookies([{ name: cookieName, value: token, url, httpOnly: true, sameSite: 'Strict' }]);
    },
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
