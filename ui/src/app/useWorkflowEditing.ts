import { useCallback, useEffect, useRef, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import {
  canRedo,
  canUndo,
  createHistory,
  isDirty,
  markSaved,
  pushSnapshot,
  redo,
  undo,
  type EditHistory,
} from '../editing/editHistory';
import type { ApiError } from '../generated/ApiError';
import type { WorkflowEdit } from '../generated/WorkflowEdit';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { useDebouncedText } from '../source/useDebouncedText';

/** How long typing in the source view pauses before the text is checked. */
const TYPING_PAUSE_MS = 300;

/** Editing the open workflow: structured edits, undo and redo, and saving. */
export interface WorkflowEditing {
  dirty: boolean;
  busy: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** Why the last edit or save failed. */
  error: ApiError | null;
  /** Sends `edits` to the API, which decides and applies them (all or none): the workflow
   * they made, or null when they were refused (`error` says why) or nothing was open. */
  apply: (edits: WorkflowEdit[]) => Promise<OpenedWorkflow | null>;
  /** Takes new text typed in the source view, once typing pauses (every other operation
   * takes a pending text first). When it does not parse, the canvas keeps the last graph
   * that did and the problems show the parse error. */
  typeText: (source: string) => void;
  undo: () => Promise<void>;
  redo: () => Promise<void>;
  save: () => Promise<void>;
  dismissError: () => void;
  /** Takes pending typed text, then resolves once every operation queued so far has finished. */
  settled: () => Promise<void>;
  /** Whether the newest document differs from what was last saved (read now, not at render). */
  hasUnsavedEdits: () => boolean;
  /** The text this editor last read from or wrote to the file (what it expects on disk). */
  knownDisk: () => string | null;
  /** Shows the file as it now is on disk, with a fresh history (unsaved edits are dropped). */
  reload: (disk: OpenedWorkflow) => Promise<void>;
  /** Keeps the unsaved edits over a change made on disk: the next save overwrites `diskSource`. */
  keepMine: (diskSource: string) => void;
}

type Tracked = { path: string; history: EditHistory<null> };

/**
 * Keeps an undo history per opened file. Edits go through the API, which changes only the
 * edited spots of the text; undo and redo re-check a remembered text; saving writes the
 * text and refuses if the file changed on disk since it was opened or saved. `now` gives
 * the time for the history (passed in for tests).
 */
export function useWorkflowEditing(
  api: Api,
  opened: OpenedWorkflow | null,
  replace: (next: OpenedWorkflow) => void,
  now: () => number = Date.now,
): WorkflowEditing {
  const [tracked, setTracked] = useState<Tracked | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const own = useRef<string | null>(null);
  // What the file holds as far as this editor knows: read when opened, written when saved,
  // or accepted as the text to overwrite when a change on disk was answered "keep mine".
  const diskText = useRef<string | null>(null);

  // A file opened from outside (not by our own edit) starts a fresh history.
  useEffect(() => {
    if (opened === null) {
      setTracked(null);
      return;
    }
    if (own.current === opened.source) return;
    diskText.current = opened.source;
    setTracked({ path: opened.path, history: createHistory({ source: opened.source }) });
    setError(null);
  }, [opened]);

  const history = tracked !== null && opened !== null && tracked.path === opened.path ? tracked.history : null;
  // The newest document and history, also between a request's answer and the next render,
  // so operations queued behind one another (a source change, then a canvas edit) chain.
  const latest = useRef({ opened, history });
  latest.current = { opened, history };

  // Operations run one after another: each reads the document the previous one left, so an
  // edit made while a typed text is still being checked builds on that text.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const run = useCallback((work: () => Promise<void>) => {
    const step = queue.current.then(async () => {
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (reason) {
        setError(toApiError(reason));
      } finally {
        setBusy(false);
      }
    });
    queue.current = step;
    return step;
  }, []);

  const show = useCallback(
    (next: OpenedWorkflow, nextHistory: EditHistory<null>) => {
      latest.current = { opened: next, history: nextHistory };
      own.current = next.source;
      setTracked({ path: next.path, history: nextHistory });
      replace(next);
    },
    [replace],
  );

  const takeText = useCallback(
    async (source: string) => {
      await run(async () => {
        const { opened, history } = latest.current;
        if (opened === null || history === null || source === opened.source) return;
        const checked = await api.checkWorkflow({ path: opened.path, source });
        const shown = checked.workflow === null ? { ...checked, workflow: opened.workflow } : checked;
        show(shown, pushSnapshot(history, { source }, { kind: 'text', at: now() }));
      });
    },
    [api, now, run, show],
  );
  const { push: typeText, flush } = useDebouncedText(takeText, TYPING_PAUSE_MS);

  const apply = useCallback(
    async (edits: WorkflowEdit[]) => {
      await flush();
      let applied: OpenedWorkflow | null = null;
      await run(async () => {
        const { opened, history } = latest.current;
        if (opened === null || history === null || edits.length === 0) return;
        const next = await api.editWorkflow({ path: opened.path, source: opened.source, edits });
        show(next, pushSnapshot(history, { source: next.source }, { kind: 'structured', at: now() }));
        applied = next;
      });
      return applied;
    },
    [api, flush, now, run, show],
  );

  const travel = useCallback(
    async (step: (h: EditHistory<null>) => EditHistory<null>, possible: (h: EditHistory<null>) => boolean) => {
      await flush();
      await run(async () => {
        const { opened, history } = latest.current;
        if (opened === null || history === null || !possible(history)) return;
        const moved = step(history);
        const next = await api.checkWorkflow({ path: opened.path, source: moved.present.source });
        show(next, moved);
      });
    },
    [api, flush, run, show],
  );

  const save = useCallback(async () => {
    await flush();
    await run(async () => {
      const { opened, history } = latest.current;
      if (opened === null || history === null) return;
      const next = await api.saveWorkflow({
        path: opened.path,
        source: opened.source,
        expected_disk: diskText.current ?? history.savedSource,
      });
      diskText.current = next.source;
      show(next, markSaved(pushSnapshot(history, { source: next.source }, { kind: 'structured', at: now() })));
    });
  }, [api, flush, now, run, show]);

  const reload = useCallback(
    async (disk: OpenedWorkflow) => {
      await flush();
      await run(async () => {
        // Not our own text, so the open-from-outside effect starts a fresh history.
        own.current = null;
        latest.current = { opened: disk, history: createHistory({ source: disk.source }) };
        diskText.current = disk.source;
        replace(disk);
      });
    },
    [flush, replace, run],
  );
  const keepMine = useCallback((diskSource: string) => {
    diskText.current = diskSource;
  }, []);
  const settled = useCallback(async () => {
    await flush();
    await queue.current;
  }, [flush]);
  const hasUnsavedEdits = useCallback(() => {
    const { history } = latest.current;
    return history !== null && isDirty(history);
  }, []);
  const knownDisk = useCallback(() => diskText.current, []);

  const undoable = history !== null && canUndo(history);
  const redoable = history !== null && canRedo(history);
  return {
    dirty: history !== null && isDirty(history),
    busy,
    canUndo: undoable,
    canRedo: redoable,
    error,
    apply,
    typeText,
    undo: useCallback(() => travel(undo, canUndo), [travel]),
    redo: useCallback(() => travel(redo, canRedo), [travel]),
    save,
    dismissError: useCallback(() => setError(null), []),
    settled,
    hasUnsavedEdits,
    knownDisk,
    reload,
    keepMine,
  };
}
