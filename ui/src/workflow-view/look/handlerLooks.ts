import type { HandlerKind } from '../../generated/HandlerKind';

/** The outline a node is drawn with. */
export type NodeShape =
  | 'pill'
  | 'rect'
  | 'tab'
  | 'parallelogram'
  | 'hexagon'
  | 'diamond'
  | 'house';

/**
 * Extra strokes over the outline: a second ring, a fork bar across the top, or short bars
 * inside both ends (Graphviz's insulator).
 */
export type NodeDecoration = 'none' | 'double' | 'bar' | 'sides';

/** Names of the inline SVG icons in `icons/KindIcon.tsx`. */
export type KindIconName =
  | 'play'
  | 'stop'
  | 'sparkle'
  | 'message'
  | 'terminal'
  | 'person'
  | 'branch'
  | 'fork'
  | 'join'
  | 'hourglass'
  | 'loop';

/** How one handler kind looks on the canvas. */
export interface HandlerLook {
  /** Human name shown under the label ("Agent", "Command"). */
  title: string;
  shape: NodeShape;
  icon: KindIconName;
  decoration: NodeDecoration;
  /** CSS class carrying the kind's colours (see `nodes.css`). */
  tone: string;
}

const LOOKS: Record<HandlerKind, HandlerLook> = {
  start: { title: 'Start', shape: 'pill', icon: 'play', decoration: 'none', tone: 'tone-start' },
  exit: { title: 'Exit', shape: 'pill', icon: 'stop', decoration: 'double', tone: 'tone-exit' },
  agent: { title: 'Agent', shape: 'rect', icon: 'sparkle', decoration: 'none', tone: 'tone-agent' },
  prompt: { title: 'Prompt', shape: 'tab', icon: 'message', decoration: 'none', tone: 'tone-prompt' },
  command: { title: 'Command', shape: 'parallelogram', icon: 'terminal', decoration: 'none', tone: 'tone-command' },
  human: { title: 'Human', shape: 'hexagon', icon: 'person', decoration: 'none', tone: 'tone-human' },
  conditional: { title: 'Condition', shape: 'diamond', icon: 'branch', decoration: 'none', tone: 'tone-conditional' },
  parallel: { title: 'Parallel', shape: 'rect', icon: 'fork', decoration: 'bar', tone: 'tone-parallel' },
  fan_in: { title: 'Fan-in', shape: 'rect', icon: 'join', decoration: 'double', tone: 'tone-fan-in' },
  wait: { title: 'Wait', shape: 'rect', icon: 'hourglass', decoration: 'sides', tone: 'tone-wait' },
  manager_loop: { title: 'Manager loop', shape: 'house', icon: 'loop', decoration: 'none', tone: 'tone-manager' },
};

/** The look of a handler kind. */
export function lookOf(kind: HandlerKind): HandlerLook {
  return LOOKS[kind];
}

/** Every kind, in palette order (for legends and tests). */
export const HANDLER_KINDS: readonly HandlerKind[] = [
  'start',
  'exit',
  'agent',
  'prompt',
  'command',
  'human',
  'conditional',
  'parallel',
  'fan_in',
  'wait',
  'manager_loop',
];
