import type { WorkflowEntry } from '../generated/WorkflowEntry';

/** Most recently modified first; ties by path. Does not mutate. */
export function sortByRecent(entries: readonly WorkflowEntry[]): WorkflowEntry[] {
  return [...entries].sort(
    (a, b) => b.modified_ms - a.modified_ms || a.relative_path.localeCompare(b.relative_path),
  );
}

/** Splits `dir/sub/name.dot` into the file name and its folder (empty at the top level). */
export function splitEntryPath(relativePath: string): { name: string; folder: string } {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0
    ? { name: relativePath, folder: '' }
    : { name: relativePath.slice(slash + 1), folder: relativePath.slice(0, slash) };
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", or a date for older times. */
export function relativeTime(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return days === 1 ? 'yesterday' : `${days} days ago`;
  return new Date(thenMs).toISOString().slice(0, 10);
}
