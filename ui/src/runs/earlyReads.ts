/**
 * Reads started when the app opens on a run, before the run screen's code has loaded, kept
 * by API and run until a screen asks for them: the server works on them while the screen
 * loads instead of after. What a failed read leaves depends on the read (see `EarlyReads`).
 */
export class EarlyReads<A extends object, T> {
  private readonly reads = new WeakMap<A, Map<string, Promise<T>>>();

  /**
   * @param keepFailed whether a failed read stays for whoever asks (to report it), or is
   *   dropped so the next ask reads afresh.
   */
  constructor(private readonly keepFailed: boolean) {}

  /** Starts `read` for `runId` unless one was started already. */
  start(api: A, runId: string, read: () => Promise<T>): void {
    let reads = this.reads.get(api);
    if (reads === undefined) {
      reads = new Map();
      this.reads.set(api, reads);
    }
    if (reads.has(runId)) return;
    const started = read();
    reads.set(runId, started);
    const kept = reads;
    started.catch(() => {
      if (!this.keepFailed) kept.delete(runId);
    });
  }

  /** The read started for `runId`, left for others too (null when there is none). */
  peek(api: A, runId: string): Promise<T> | null {
    return this.reads.get(api)?.get(runId) ?? null;
  }

  /** The read started for `runId`, handed over once (null when there is none). */
  take(api: A, runId: string): Promise<T> | null {
    const reads = this.reads.get(api);
    const read = reads?.get(runId) ?? null;
    reads?.delete(runId);
    return read;
  }
}
