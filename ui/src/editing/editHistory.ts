/**
 * Undo and redo over whole document snapshots (the workflow text, plus the selection to
 * restore with it), and whether the document differs from what was last saved.
 *
 * Snapshots rather than inverse edits: the Rust side turns structured edits into text, so
 * the text before and after is all the history needs, and undo is exact. Typing in the
 * source view arrives as many small text changes; those that follow each other within
 * `coalesceMs` become one step. Times are passed in (milliseconds from any clock), so the
 * history is a pure value and tests need no timers. Every function returns a new history.
 */

/** One state of the document. */
export type DocumentSnapshot<S> = { source: string; selection?: S };

/** How a change was made: `text` (typing in the source view) coalesces, `structured` never does. */
export type ChangeKind = 'text' | 'structured';

export type HistoryOptions = {
  /** Most undo steps kept; the oldest go first. Default 200. */
  limit?: number;
  /** Text changes less than this many ms after the previous one join its step. Default 1000. */
  coalesceMs?: number;
  /** The initial snapshot is not saved anywhere yet (a new workflow): it starts dirty. */
  unsaved?: boolean;
};

export type EditHistory<S> = {
  readonly past: readonly DocumentSnapshot<S>[];
  readonly present: DocumentSnapshot<S>;
  readonly future: readonly DocumentSnapshot<S>[];
  readonly limit: number;
  readonly coalesceMs: number;
  /** The source as last saved; null when never saved. */
  readonly savedSource: string | null;
  /** When the last text change of a step that may still grow happened; null when none may. */
  readonly openTextStepAt: number | null;
};

export const DEFAULT_HISTORY_LIMIT = 200;
export const DEFAULT_COALESCE_MS = 1000;

export function createHistory<S>(initial: DocumentSnapshot<S>, options: HistoryOptions = {}): EditHistory<S> {
  return {
    past: [],
    present: initial,
    future: [],
    limit: Math.max(0, Math.floor(options.limit ?? DEFAULT_HISTORY_LIMIT)),
    coalesceMs: Math.max(0, options.coalesceMs ?? DEFAULT_COALESCE_MS),
    savedSource: options.unsaved === true ? null : initial.source,
    openTextStepAt: null,
  };
}

/**
 * Records `snapshot` as the new present. A snapshot with the same source only updates the
 * selection (no step, redo kept). A text change within `coalesceMs` of the previous text
 * change replaces the present instead of adding a step. Any new step drops the redo list.
 */
export function pushSnapshot<S>(
  history: EditHistory<S>,
  snapshot: DocumentSnapshot<S>,
  change: { kind: ChangeKind; at: number },
): EditHistory<S> {
  if (snapshot.source === history.present.source) return { ...history, present: snapshot };
  const open = history.openTextStepAt;
  const joins =
    change.kind === 'text' && open !== null && change.at >= open && change.at - open <= history.coalesceMs;
  const openTextStepAt = change.kind === 'text' ? change.at : null;
  if (joins) return { ...history, present: snapshot, future: [], openTextStepAt };
  const past = [...history.past, history.present];
  return {
    ...history,
    past: past.slice(Math.max(0, past.length - history.limit)),
    present: snapshot,
    future: [],
    openTextStepAt,
  };
}

export function canUndo<S>(history: EditHistory<S>): boolean {
  return history.past.length > 0;
}

export function canRedo<S>(history: EditHistory<S>): boolean {
  return history.future.length > 0;
}

/** Back one step (the same history when there is none). */
export function undo<S>(history: EditHistory<S>): EditHistory<S> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return {
    ...history,
    past: history.past.slice(0, -1),
    present: previous,
    future: [history.present, ...history.future],
    openTextStepAt: null,
  };
}

/** Forward one undone step (the same history when there is none). */
export function redo<S>(history: EditHistory<S>): EditHistory<S> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return {
    ...history,
    past: [...history.past, history.present],
    present: next,
    future: rest,
    openTextStepAt: null,
  };
}

/** The present was saved. The next text change starts a new step, so undo returns here. */
export function markSaved<S>(history: EditHistory<S>): EditHistory<S> {
  return { ...history, savedSource: history.present.source, openTextStepAt: null };
}

/** Whether the present text differs from the saved one (undoing back to it makes it clean). */
export function isDirty<S>(history: EditHistory<S>): boolean {
  return history.savedSource !== history.present.source;
}
