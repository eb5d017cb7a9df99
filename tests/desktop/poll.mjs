// Waiting by polling: call a probe until it returns a truthy value or the time is up.

import { setTimeout as delay } from 'node:timers/promises';

/**
 * Calls `probe` every `intervalMs` until it returns something truthy, and returns that.
 * Throws after `timeoutMs`, naming `what` and the last value or error seen.
 */
export async function pollUntil(what, probe, { timeoutMs = 60_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last seen: ${seen})`);
    }
    await delay(intervalMs);
  }
}
