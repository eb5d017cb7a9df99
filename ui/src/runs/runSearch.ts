import type { RunRecord } from '../generated/RunRecord';

/**
 * Whether a run matches what was typed in the search box: every word must appear in its id,
 * workflow name or path, goal, status, or one of its labels (`key=value`).
 */
export function matchesSearch(run: RunRecord, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const haystack = [
    run.id,
    run.workflow_name,
    run.workflow_path,
    run.goal ?? '',
    run.status,
    ...Object.entries(run.labels).map(([k, v]) => `${k}=${v}`),
  ]
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}
