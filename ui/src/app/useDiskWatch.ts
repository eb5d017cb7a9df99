import { useCallback, useEffect, useRef, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { diskChangeAction } from './diskChange';
import type { WorkflowEditing } from './useWorkflowEditing';

/** A change on disk the person has to answer (or know about). */
export type DiskConflict =
  | { kind: 'changed'; path: string; disk: OpenedWorkflow }
  | { kind: 'deleted'; path: string };

/** The watch's state and the answers to a conflict. */
export interface DiskWatch {
  conflict: DiskConflict | null;
  /** Discards the unsaved edits and shows the file as it is on disk. */
  reloadFromDisk: () => void;
  /** Keeps the unsaved edits; the next save overwrites the file. */
  keepMine: () => void;
}

/**
 * Watches the open workflow's file. After every queued edit or save has finished, the file
 * is read again and compared with what the editor expects: its own saves are ignored, a
 * clean document reloads, a dirty one raises a conflict. Also checked once the watch is in
 * place, so a change between opening and watching is not missed.
 */
export function useDiskWatch(api: Api, path: string | null, editing: WorkflowEditing): DiskWatch {
  const [conflict, setConflict] = useState<DiskConflict | null>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;

  useEffect(() => {
    setConflict(null);
    if (path === null) return;
    let active = true;
    let checking = Promise.resolve();
    const check = () => {
      checking = checking.then(async () => {
        await editingRef.current.settled();
        let disk: OpenedWorkflow | null;
        try {
          disk = await api.openWorkflow({ path });
        } catch (reason) {
          if (toApiError(reason).code !== 'not_found') return;
          disk = null;
        }
        if (!active) return;
        const current = editingRef.current;
        const decision = diskChangeAction(disk?.source ?? null, current.knownDisk(), current.hasUnsavedEdits());
        if (decision.action === 'deleted') setConflict({ kind: 'deleted', path });
        else if (decision.action === 'reload' && disk !== null) {
          setConflict(null);
          await current.reload(disk);
        } else if (decision.action === 'ask' && disk !== null) setConflict({ kind: 'changed', path, disk });
        else setConflict((shown) => (shown?.kind === 'deleted' ? null : shown));
      });
    };
    const stop = api.watchWorkflow(path, { onReady: check, onChange: check });
    return () => {
      active = false;
      stop();
    };
  }, [api, path]);

  const reloadFromDisk = useCallback(() => {
    if (conflict?.kind !== 'changed') return;
    setConflict(null);
    void editingRef.current.reload(conflict.disk);
  }, [conflict]);
  const keepMine = useCallback(() => {
    if (conflict?.kind === 'changed') editingRef.current.keepMine(conflict.disk.source);
    setConflict(null);
  }, [conflict]);
  return { conflict, reloadFromDisk, keepMine };
}
