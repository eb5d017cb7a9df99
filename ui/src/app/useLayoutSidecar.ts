import { useCallback, useEffect, useRef, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import {
  followEdits,
  parsePositions,
  pinPosition,
  serializePositions,
  type PinnedPositions,
  type Point,
} from '../editing/positions';
import type { ApiError } from '../generated/ApiError';
import type { WorkflowEdit } from '../generated/WorkflowEdit';

/** The positions a person pinned for the open workflow, kept in its layout sidecar. */
export interface LayoutSidecar {
  positions: PinnedPositions;
  /** What could not be read from the sidecar (those entries are ignored). */
  problems: string[];
  /** The last failure to read or write the sidecar. */
  error: ApiError | null;
  /** Pins node `id` where it was dropped. */
  pin: (id: string, point: Point) => void;
  /** Keeps the positions in step with edits (renames, removals). */
  follow: (edits: readonly WorkflowEdit[]) => void;
  /** Forgets every pinned position: the whole graph is laid out automatically again. */
  reset: () => void;
  dismiss: () => void;
}

const NONE: PinnedPositions = new Map();

function samePositions(a: PinnedPositions, b: PinnedPositions): boolean {
  if (a.size !== b.size) return false;
  for (const [id, p] of a) {
    const q = b.get(id);
    if (q === undefined || q.x !== p.x || q.y !== p.y) return false;
  }
  return true;
}

/**
 * Reads the sidecar of the workflow at `path` and writes it after every change, in order
 * (a later write never lands before an earlier one). The `.dot` is never touched.
 */
export function useLayoutSidecar(api: Api, path: string | null): LayoutSidecar {
  const [positions, setPositions] = useState<PinnedPositions>(NONE);
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const current = useRef<PinnedPositions>(NONE);
  const writes = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => {
    current.current = NONE;
    setPositions(NONE);
    setProblems([]);
    setError(null);
    if (path === null) return;
    let active = true;
    api.readLayout({ path }).then(
      (layout) => {
        if (!active) return;
        const parsed = parsePositions(layout.text ?? '');
        current.current = parsed.positions;
        setPositions(parsed.positions);
        setProblems(parsed.problems);
      },
      (reason: unknown) => {
        if (active) setError(toApiError(reason));
      },
    );
    return () => {
      active = false;
    };
  }, [api, path]);

  const store = useCallback(
    (next: PinnedPositions) => {
      if (path === null || samePositions(next, current.current)) return;
      current.current = next;
      setPositions(next);
      const text = serializePositions(next);
      writes.current = writes.current.then(() =>
        api.saveLayout({ path, text }).then(
          () => undefined,
          (reason: unknown) => setError(toApiError(reason)),
        ),
      );
    },
    [api, path],
  );

  return {
    positions,
    problems,
    error,
    pin: useCallback(
      (id: string, point: Point) => store(pinPosition(current.current, id, { x: Math.round(point.x), y: Math.round(point.y) })),
      [store],
    ),
    follow: useCallback((edits: readonly WorkflowEdit[]) => store(followEdits(current.current, edits)), [store]),
    reset: useCallback(() => store(new Map()), [store]),
    dismiss: useCallback(() => {
      setProblems([]);
      setError(null);
    }, []),
  };
}
