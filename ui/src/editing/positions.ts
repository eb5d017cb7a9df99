/**
 * Node positions a person set by dragging, kept beside the workflow and never in the `.dot`
 * (the DOT text stays exactly what the person wrote; layout is the canvas's business).
 *
 * The sidecar for `flows/review.dot` is `flows/review.dot.heddle-layout.json`: the workflow's
 * whole file name plus `.heddle-layout.json`, so it sorts next to the workflow, says who
 * wrote it and what it holds, and `review.dot` and `review.gv` never share one. Its format:
 *
 *     {
 *       "version": 1,
 *       "positions": {
 *         "plan": { "x": 120, "y": 40 }
 *       }
 *     }
 *
 * Positions are in the frame of the canvas node's `position`: relative to the subgraph box
 * for a node drawn inside one, else absolute. Nodes without an entry keep the ELK layout.
 */
import type { WorkflowEdit } from '../generated/WorkflowEdit';

/** A point in canvas coordinates. */
export type Point = { x: number; y: number };

/** Pinned positions by node id (a Map, so ids such as `__proto__` are plain keys). */
export type PinnedPositions = ReadonlyMap<string, Point>;

/** What `parsePositions` read, and what it had to skip. */
export type ParsedPositions = { positions: PinnedPositions; problems: string[] };

export const SIDECAR_SUFFIX = '.heddle-layout.json';
export const POSITIONS_VERSION = 1;

/** Where the positions of the workflow at `workflowPath` are kept. */
export function sidecarPathFor(workflowPath: string): string {
  return `${workflowPath}${SIDECAR_SUFFIX}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asPoint(value: unknown): Point | null {
  if (!isRecord(value)) return null;
  const { x, y } = value;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y))
    return null;
  return { x, y };
}

/**
 * Reads a sidecar. Never throws: text that is not JSON, or not this format, gives no
 * positions and a problem; entries that are not points are skipped, each with a problem.
 * Empty text (no sidecar yet) gives no positions and no problem.
 */
export function parsePositions(text: string): ParsedPositions {
  const none = (problem: string): ParsedPositions => ({ positions: new Map(), problems: [problem] });
  if (text.trim() === '') return { positions: new Map(), problems: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return none(`the layout file is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(data)) return none('the layout file does not hold a JSON object');
  if (data.version !== POSITIONS_VERSION) {
    return none(
      `the layout file has version ${JSON.stringify(data.version)}; this Heddle reads version ${POSITIONS_VERSION}`,
    );
  }
  if (!isRecord(data.positions)) return none('the layout file has no `positions` object');
  const positions = new Map<string, Point>();
  const problems: string[] = [];
  for (const [id, value] of Object.entries(data.positions)) {
    const point = asPoint(value);
    if (point === null)
      problems.push(`the position of \`${id}\` is not {"x": number, "y": number}; it was ignored`);
    else positions.set(id, point);
  }
  return { positions, problems };
}

/** Code unit order: the same on every machine, unlike `localeCompare`. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The sidecar text: keys sorted, one node per line (small diffs), a trailing newline. */
export function serializePositions(positions: PinnedPositions): string {
  const entries = [...positions].sort(([a], [b]) => byCodeUnits(a, b));
  const lines = entries.map(([id, p], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    return `    ${JSON.stringify(id)}: { "x": ${JSON.stringify(p.x)}, "y": ${JSON.stringify(p.y)} }${comma}`;
  });
  const body = lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n  }`;
  return `{\n  "version": ${POSITIONS_VERSION},\n  "positions": ${body}\n}\n`;
}

/** `positions` with node `id` pinned at `point` (after a drag). */
export function pinPosition(positions: PinnedPositions, id: string, point: Point): PinnedPositions {
  return new Map(positions).set(id, { x: point.x, y: point.y });
}

/** `positions` without an entry for `id` (back to the automatic layout). */
export function unpinPosition(positions: PinnedPositions, id: string): PinnedPositions {
  const next = new Map(positions);
  next.delete(id);
  return next;
}

/**
 * Laid-out canvas nodes with the pinned ones moved to their pinned position. Other nodes are
 * returned as they were (same objects); entries for nodes not on the canvas are ignored.
 */
export function applyPositions<N extends { id: string; position: Point }>(
  nodes: readonly N[],
  positions: PinnedPositions,
): N[] {
  return nodes.map((node) => {
    const pinned = positions.get(node.id);
    return pinned === undefined ? node : { ...node, position: { x: pinned.x, y: pinned.y } };
  });
}

/**
 * Keeps positions in step with edits made to the workflow: a renamed node keeps its
 * position under the new id, a removed node loses it, and an added node starts without one
 * (an entry left over for its id from an earlier node is dropped; pin the drop point after).
 * Other edits change nothing.
 */
export function followEdits(positions: PinnedPositions, edits: readonly WorkflowEdit[]): PinnedPositions {
  const next = new Map(positions);
  for (const edit of edits) {
    if (edit.op === 'remove_node' || edit.op === 'add_node') {
      if (edit.id !== undefined) next.delete(edit.id);
    } else if (edit.op === 'delete') {
      for (const id of edit.nodes) next.delete(id);
    } else if (edit.op === 'rename_node' && edit.from !== edit.to) {
      const point = next.get(edit.from);
      next.delete(edit.from);
      if (point !== undefined) next.set(edit.to, point);
      else next.delete(edit.to);
    }
  }
  return next;
}
