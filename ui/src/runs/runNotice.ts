import type { RunProgress } from './runProgress';

/** Something about a run worth telling a person who is looking elsewhere. */
export type RunNotice = { key: string; title: string; body: string };

/** Events older than this (replayed history, not news) never notify. */
export const NOTICE_FRESH_MS = 15_000;

/**
 * What changed between two moments of a followed run that deserves a notification: the
 * run ended, or it started waiting for a person, just now (`now`, epoch ms). Null when
 * nothing did, or when the change is history being replayed (opening a finished run).
 */
export function runNotice(workflow: string, before: RunProgress, after: RunProgress, now: number): RunNotice | null {
  if (now - after.lastEventAt > NOTICE_FRESH_MS) return null;
  if (before.runState === 'running' && after.runState !== 'running') {
    const verb = after.runState === 'completed' ? 'finished' : after.runState === 'failed' ? 'failed' : 'was cancelled';
    return { key: `end:${after.seq}`, title: `${workflow} ${verb}`, body: `The run ${verb}.` };
  }
  for (const [node, progress] of after.nodes) {
    if (progress.status === 'waiting' && before.nodes.get(node)?.status !== 'waiting') {
      return { key: `wait:${node}:${after.seq}`, title: `${workflow} is waiting for you`, body: `${node} asks a question.` };
    }
  }
  return null;
}

/** Shows a desktop notification when the page is hidden and the person allowed them. */
export function notifyDesktop(notice: RunNotice): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus()) return;
  new Notification(notice.title, { body: notice.body, tag: notice.key });
}

/** Asks for permission to notify (call from a click). */
export function askToNotify(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
}
