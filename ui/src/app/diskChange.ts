/**
 * What to do when the open workflow's file changed on disk. Pure, so every case is tested:
 * the editor's own save (the disk holds what it wrote) is no change; a clean document
 * follows the disk; a dirty one is never overwritten without the person choosing.
 */

/** The decision for one observed state of the file. */
export type DiskChangeAction =
  /** The disk holds what the editor expects (its own save, or a touch without a change). */
  | { action: 'ignore' }
  /** Nothing unsaved: show the file as it now is. */
  | { action: 'reload' }
  /** Unsaved edits and a different file on disk: the person chooses. */
  | { action: 'ask'; diskSource: string }
  /** The file is gone (deleted or moved); saving would write it again. */
  | { action: 'deleted' };

/** `disk` is the file's text now (null when it no longer exists); `known` what the editor
 * last read or wrote; `dirty` whether there are unsaved edits. */
export function diskChangeAction(disk: string | null, known: string | null, dirty: boolean): DiskChangeAction {
  if (disk === null) return { action: 'deleted' };
  if (disk === known) return { action: 'ignore' };
  return dirty ? { action: 'ask', diskSource: disk } : { action: 'reload' };
}
