// Starts tauri-driver (which starts WebKitWebDriver, which starts the app) on free loopback
// ports, keeps its stderr for failure reports, and stops it again.

import { spawn } from 'node:child_process';
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
    const status = this.exit ? `exit ${JSON.stringify(this.exit)}` : 'running';
    return `${status}\n----- tauri-driver output -----\n${this.log || '(none)'}\n-------------------------------`;
  }

  /** Stops the driver (and the native driver it started) and waits for it to exit. */
  async stop() {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    const killed = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(killed);
  }
}
