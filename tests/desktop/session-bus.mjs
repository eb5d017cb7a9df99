// A private D-Bus session bus for one test (single instance and notifications talk over the
// session bus on Linux), and a monitor of the messages sent on it. Needs dbus-daemon and
// dbus-monitor (Debian: the `dbus` package).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pollUntil } from './poll.mjs';

/** A running `dbus-daemon --session` of its own; `address` goes in DBUS_SESSION_BUS_ADDRESS. */
export class SessionBus {
  constructor(child, address) {
    this.child = child;
    this.address = address;
  }

  /** Starts the bus and waits until it prints its address. */
  static async start() {
    const child = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    let errors = '';
    child.stdout.on('data', (chunk) => (printed += chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    const failed = new Promise((_, reject) => child.on('error', reject));
    const address = await Promise.race([
      failed,
      pollUntil('dbus-daemon to print its address', () => printed.includes('\n') && printed.trim(), {
        timeoutMs: 10_000,
        intervalMs: 50,
      }).catch((error) => {
        throw new Error(`${error.message}; dbus-daemon said: ${errors}`);
      }),
    ]);
    return new SessionBus(child, address);
  }

  /** Starts `dbus-monitor` on this bus for `rules` (match rules); its output grows in `text`. */
  async monitor(rules) {
    const child = spawn('dbus-monitor', ['--address', this.address, ...rules], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const watch = { child, text: '' };
    child.stdout.on('data', (chunk) => (watch.text += chunk));
    child.stderr.on('data', (chunk) => (watch.text += chunk));
    // It prints the bus's NameAcquired signal to it once it is listening.
    await pollUntil('dbus-monitor to listen', () => watch.text.length > 0 || child.exitCode !== null, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    return watch;
  }

  /** Stops the bus and `monitors`. */
  async stop(...monitors) {
    for (const { child } of [...monitors, this]) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
  }
}
