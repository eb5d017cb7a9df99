// Starts tauri-driver (which starts WebKitWebDriver, which starts the app) on free loopback
// ports, keeps its stderr for failure reports, and stops it again.

import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { isReady } from './webdriver.mjs';
import { pollUntil } from './poll.mjs';

/** A loopback port nobody is listening on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Ids of all processes below `pid` (Linux /proc), children first. */
function descendants(pid) {
  const found = [];
  let children = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    children = [];
  }
  for (const child of children) found.push(child, ...descendants(child));
  return found;
}

/** True while `pid` runs (a zombie, exited but not yet reaped, does not count). */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** A running tauri-driver. */
export class TauriDriver {
  constructor(child, base) {
    this.child = child;
    this.base = base;
    this.log = '';
    this.exit = null;
    child.stdout.on('data', (chunk) => (this.log += chunk));
    child.stderr.on('data', (chunk) => (this.log += chunk));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  /** Starts `binary` and waits until it answers WebDriver's `/status`. */
  static async start(binary, env) {
    const port = await freePort();
    const nativePort = await freePort();
    const child = spawn(binary, ['--port', String(port), '--native-port', String(nativePort)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const failedToSpawn = new Promise((_, reject) => child.on('error', reject));
    const driver = new TauriDriver(child, `http://127.0.0.1:${port}`);
    const ready = pollUntil(
      `tauri-driver on port ${port}`,
      async () => {
        if (driver.exit) throw new Error(`tauri-driver exited early: ${driver.describe()}`);
        return isReady(driver.base);
      },
      { timeoutMs: 30_000 },
    );
    await Promise.race([ready, failedToSpawn]);
    return driver;
  }

  /** Exit status and everything it (and WebKitWebDriver, and the app) printed. */
  describe() {
    const status = `tauri-driver: ${this.exit ? `exited ${JSON.stringify(this.exit)}` : 'running'}`;
    return `${status}\n----- tauri-driver output -----\n${this.log || '(none)'}\n-------------------------------`;
  }

  /**
   * Stops the driver and waits for it to exit. tauri-driver kills WebKitWebDriver, but an app
   * still open then (a failed or hung session) would be left behind, so every process that was
   * below the driver and is still alive afterwards is ended too.
   */
  async stop() {
    const below = descendants(this.child.pid);
    if (!this.exit) {
      this.child.kill('SIGTERM');
      const killed = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(killed);
    }
    const left = below.filter((pid) => alive(pid) && signal(pid, 'SIGTERM'));
    if (left.length > 0) {
      await pollUntil('leftover app processes to exit', () => !left.some(alive), {
        timeoutMs: 5_000,
      }).catch(() => left.forEach((pid) => signal(pid, 'SIGKILL')));
    }
  }
}
