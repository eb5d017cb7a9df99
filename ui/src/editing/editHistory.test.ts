import { describe, expect, it } from 'vitest';
import {
  canRedo,
  canUndo,
  createHistory,
  isDirty,
  markSaved,
  pushSnapshot,
  redo,
  undo,
  type ChangeKind,
  type EditHistory,
} from './editHistory';

type Selection = { nodes: string[] };
type History = EditHistory<Selection>;

function push(
  history: History,
  source: string,
  kind: ChangeKind,
  at: number,
  selection?: Selection,
): History {
  return pushSnapshot(history, selection === undefined ? { source } : { source, selection }, { kind, at });
}

const start = (): History => createHistory<Selection>({ source: 'v0' });

describe('editHistory: undo and redo', () => {
  it('starts with nothing to undo or redo, and clean', () => {
    const h = start();
    expect([canUndo(h), canRedo(h), isDirty(h)]).toEqual([false, false, false]);
    expect(undo(h)).toBe(h);
    expect(redo(h)).toBe(h);
  });

  it('undoes and redoes structured edits step by step', () => {
    let h = push(push(start(), 'v1', 'structured', 0), 'v2', 'structured', 10);
    h = undo(h);
    expect(h.present.source).toBe('v1');
    h = undo(h);
    expect(h.present.source).toBe('v0');
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h.present.source).toBe('v1');
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present.source).toBe('v2');
    expect(canRedo(h)).toBe(false);
  });

  it('restores the selection stored with a snapshot', () => {
    let h = push(start(), 'v1', 'structured', 0, { nodes: ['plan'] });
    h = push(h, 'v2', 'structured', 5, { nodes: [] });
    expect(undo(h).present).toEqual({ source: 'v1', selection: { nodes: ['plan'] } });
  });

  it('drops the redo list when a new change comes after an undo', () => {
    let h = undo(push(start(), 'v1', 'structured', 0));
    h = push(h, 'other', 'structured', 10);
    expect(canRedo(h)).toBe(false);
    expect(undo(h).present.source).toBe('v0');
  });

  it('records a selection-only change without a step and keeps redo', () => {
    let h = undo(push(start(), 'v1', 'structured', 0));
    h = push(h, 'v0', 'structured', 5, { nodes: ['exit'] });
    expect(h.past).toHaveLength(0);
    expect(h.present.selection).toEqual({ nodes: ['exit'] });
    expect(redo(h).present.source).toBe('v1');
  });

  it('keeps at most `limit` steps, dropping the oldest', () => {
    let h = createHistory<Selection>({ source: 's0' }, { limit: 3 });
    for (let i = 1; i <= 5; i += 1) h = push(h, `s${i}`, 'structured', i * 10_000);
    expect(h.past.map((s) => s.source)).toEqual(['s2', 's3', 's4']);
    while (canUndo(h)) h = undo(h);
    expect(h.present.source).toBe('s2');
  });

  it('defaults to a limit of 200', () => {
    let h = start();
    for (let i = 1; i <= 205; i += 1) h = push(h, `s${i}`, 'structured', i);
    expect(h.past).toHaveLength(200);
    expect(h.past[0]?.source).toBe('s5');
  });
});

describe('editHistory: coalescing typing', () => {
  it('joins text changes that follow each other within the window into one step', () => {
    let h = createHistory<Selection>({ source: '' }, { coalesceMs: 500 });
    h = push(h, 'd', 'text', 1000);
    h = push(h, 'di', 'text', 1300);
    h = push(h, 'dig', 'text', 1700);
    expect(h.past.map((s) => s.source)).toEqual(['']);
    expect(undo(h).present.source).toBe('');
  });

  it('starts a new step after a pause longer than the window', () => {
    let h = createHistory<Selection>({ source: '' }, { coalesceMs: 500 });
    h = push(h, 'a', 'text', 0);
    h = push(h, 'ab', 'text', 501);
    expect(undo(h).present.source).toBe('a');
  });

  it('never joins structured edits, nor text typed right after one', () => {
    let h = push(start(), 'v1', 'structured', 0);
    h = push(h, 'v2', 'structured', 1);
    h = push(h, 'v2x', 'text', 2);
    expect(h.past.map((s) => s.source)).toEqual(['v0', 'v1', 'v2']);
  });

  it('does not join text into a step that an undo, redo or save closed', () => {
    const typed = push(start(), 'v1', 'text', 0);
    expect(undo(push(redo(undo(typed)), 'v1a', 'text', 1)).present.source).toBe('v1');
    expect(undo(push(markSaved(typed), 'v1b', 'text', 1)).present.source).toBe('v1');
  });

  it('does not join when time goes backwards', () => {
    let h = push(start(), 'a', 'text', 1000);
    h = push(h, 'ab', 'text', 999);
    expect(h.past).toHaveLength(2);
  });
});

describe('editHistory: dirty tracking', () => {
  it('is dirty after a change and clean after saving', () => {
    let h = push(start(), 'v1', 'structured', 0);
    expect(isDirty(h)).toBe(true);
    h = markSaved(h);
    expect(isDirty(h)).toBe(false);
    expect(h.savedSource).toBe('v1');
  });

  it('is clean again when undo returns to the saved text, and dirty when it leaves it', () => {
    let h = markSaved(push(start(), 'v1', 'structured', 0));
    h = push(h, 'v2', 'structured', 1);
    h = undo(h);
    expect(isDirty(h)).toBe(false);
    h = undo(h);
    expect(isDirty(h)).toBe(true);
  });

  it('starts dirty for a document never saved', () => {
    const h = createHistory<Selection>({ source: 'digraph New {}' }, { unsaved: true });
    expect(isDirty(h)).toBe(true);
    expect(isDirty(markSaved(h))).toBe(false);
  });
});
