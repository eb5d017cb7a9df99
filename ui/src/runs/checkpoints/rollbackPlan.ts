import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { FileChange } from '../../generated/FileChange';

/** What a rollback does to the files of the run's work folder. */
export interface RollbackPlan {
  /** Files present at both points whose content (or type) goes back. */
  rewritten: string[];
  /** Files the target has and the current tip lacks: written back. */
  restored: string[];
  /** Files the current tip has and the target lacks: deleted. */
  deleted: string[];
}

/**
 * The rollback's effect on files, from the diff *from the target to the current tip*
 * (what the run changed since the target): a file added since is deleted, a file deleted
 * since is restored, a modified one rewritten, a moved one moved back (new path deleted,
 * old path restored). Sorted by path.
 */
export function rollbackPlan(changes: FileChange[]): RollbackPlan {
  const plan: RollbackPlan = { rewritten: [], restored: [], deleted: [] };
  for (const change of changes) {
    switch (change.status) {
      case 'added':
        plan.deleted.push(change.path);
        break;
      case 'deleted':
        plan.restored.push(change.path);
        break;
      case 'renamed':
        plan.deleted.push(change.path);
        if (change.old_path !== null) plan.restored.push(change.old_path);
        break;
      case 'copied':
        // The copy goes; its source was not touched.
        plan.deleted.push(change.path);
        break;
      default:
        plan.rewritten.push(change.path);
    }
  }
  const sort = (paths: string[]) => paths.sort((a, b) => a.localeCompare(b, 'en'));
  return { rewritten: sort(plan.rewritten), restored: sort(plan.restored), deleted: sort(plan.deleted) };
}

/**
 * The node that ran right after checkpoint `sha` on some timeline (its earliest child
 * checkpoint's node), which is where a rollback there resumes; null when nothing ran
 * after it yet. The API does not serve checkpoint.json's `next_node_id`, so this is read
 * from the history.
 */
export function nodeRunAfter(entries: CheckpointEntry[], sha: string): string | null {
  return entries.find((e) => e.parent === sha)?.node_id ?? null;
}

/**
 * The files a `changed_outside` refusal names (its message lists them after the colon,
 * comma-separated); null when the message has another form.
 */
export function changedOutsideFiles(message: string): string[] | null {
  const match = /since its last checkpoint: (.*?); commit or move them/s.exec(message);
  if (match === null || match[1] === undefined) return null;
  return match[1].split(', ').filter((f) => f !== '');
}
