import ELK from 'elkjs/lib/elk-api';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import type { ElkLayouter } from './layoutEngine';

let shared: ElkLayouter | null = null;

/** The app's ELK: one instance running in a Web Worker, created on first use. */
export function workerElk(): ElkLayouter {
  shared ??= new ELK({ workerFactory: () => new Worker(elkWorkerUrl) });
  return shared;
}
