import type { CheckpointEntry } from '../../generated/CheckpointEntry';

/** The first 8 hex digits of a commit, enough to tell a run's checkpoints apart. */
export function shortSha(sha: string): string {
  return sha.slice(0, 8);
}

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** An RFC 3339 time in the person's locale (the text itself when it does not parse). */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME.format(date);
}

/** A byte count for people: `512 B`, `1.5 KB`, `12 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A checkpoint in one line: its node, status, commit and timeline. */
export function checkpointLabel(entry: CheckpointEntry): string {
  return `${entry.node_id} (${entry.status}) · ${shortSha(entry.sha)} · timeline ${entry.timeline}`;
}

/** `1 node completed`, `3 nodes completed`. */
export function nodesCompleted(count: number): string {
  return `${count} ${count === 1 ? 'node' : 'nodes'} completed`;
}
