/**
 * How `type`, `shape` and the node id select a handler kind, mirroring
 * `crates/heddle-workflow/src/kind.rs`: the editor needs it to give a new node the shape
 * of its kind and to notice when a rename would change what a node does.
 */
import type { HandlerKind } from '../generated/HandlerKind';

/** The shape that draws each kind (and selects it when `type` is unset). */
const KIND_SHAPES: Record<HandlerKind, string> = {
  start: 'Mdiamond',
  exit: 'Msquare',
  agent: 'box',
  prompt: 'tab',
  command: 'parallelogram',
  human: 'hexagon',
  conditional: 'diamond',
  parallel: 'component',
  fan_in: 'tripleoctagon',
  wait: 'insulator',
  manager_loop: 'house',
};

/** Every accepted `type` value with its kind: Attractor's names first, then Heddle's. */
export const TYPE_NAMES: readonly (readonly [string, HandlerKind])[] = [
  ['start', 'start'],
  ['exit', 'exit'],
  ['codergen', 'agent'],
  ['agent', 'agent'],
  ['prompt', 'prompt'],
  ['tool', 'command'],
  ['command', 'command'],
  ['wait.human', 'human'],
  ['human', 'human'],
  ['conditional', 'conditional'],
  ['parallel', 'parallel'],
  ['parallel.fan_in', 'fan_in'],
  ['fan_in', 'fan_in'],
  ['wait', 'wait'],
  ['stack.manager_loop', 'manager_loop'],
  ['manager_loop', 'manager_loop'],
];

/** The shape Heddle writes for a new node of `kind`. */
export function shapeOfKind(kind: HandlerKind): string {
  return KIND_SHAPES[kind];
}

/** The kind a `type` value names (exact, lowercase names; surrounding spaces ignored). */
export function kindFromType(value: string): HandlerKind | null {
  const name = value.trim();
  return TYPE_NAMES.find(([n]) => n === name)?.[1] ?? null;
}

/** The kind a shape selects (shape names compared without case). */
export function kindFromShape(shape: string): HandlerKind | null {
  const wanted = shape.trim().toLowerCase();
  const found = Object.entries(KIND_SHAPES).find(([, s]) => s.toLowerCase() === wanted);
  return found === undefined ? null : (found[0] as HandlerKind);
}

/** The kind a node id implies: `start` is a start, `exit` and `end` are exits (any case). */
export function kindFromId(id: string): HandlerKind | null {
  const lower = id.toLowerCase();
  if (lower === 'start') return 'start';
  if (lower === 'exit' || lower === 'end') return 'exit';
  return null;
}

/**
 * A node's kind: a known `type`, else a shape other than `box`, else the id, else agent.
 * (`box` does not hide the id's meaning, so a boxed `start` is still a start.)
 */
export function resolveKind(type: string | null, shape: string | null, id: string): HandlerKind {
  const byType = type === null ? null : kindFromType(type);
  if (byType !== null) return byType;
  const byShape = shape === null ? null : kindFromShape(shape);
  if (byShape !== null && byShape !== 'agent') return byShape;
  return kindFromId(id) ?? 'agent';
}
