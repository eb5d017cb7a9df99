import type { RunProgress } from './runProgress';

/** Something about a run worth telling a person who is looking elsewhere. */
export type RunNotice = { key: string; title: string; body: string };

/**
 * What changed between two moments of a followed run that deserves a notification: the
 * run ended, or it started waiting for a person. Null when nothing did.
 */
export function runNotice(workflow: string, before: RunProgress, after: RunProgress): RunNotice | null {
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
