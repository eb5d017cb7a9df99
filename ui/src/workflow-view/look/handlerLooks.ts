import type { HandlerKind } from '../../generated/HandlerKind';

/** The outline a node is drawn with. */
export type NodeShape =
  | 'pill'
  | 'rect'
  | 'tab'
  | 'parallelogram'
  | 'hexagon'
  | 'diamond'
  | 'fork'
  | 'join'
  | 'house';

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
  /** CSS class carrying the kind's colours (see `nodes.css`). */
  tone: string;
}

const LOOKS: Record<HandlerKind, HandlerLook> = {
  start: { title: 'Start', shape: 'pill', icon: 'play', tone: 'tone-start' },
  exit: { title: 'Exit', shape: 'pill', icon: 'stop', tone: 'tone-exit' },
  agent: { title: 'Agent', shape: 'rect', icon: 'sparkle', tone: 'tone-agent' },
  prompt: { title: 'Prompt', shape: 'tab', icon: 'message', tone: 'tone-prompt' },
  command: { title: 'Command', shape: 'parallelogram', icon: 'terminal', tone: 'tone-command' },
  human: { title: 'Human', shape: 'hexagon', icon: 'person', tone: 'tone-human' },
  conditional: { title: 'Condition', shape: 'diamond', icon: 'branch', tone: 'tone-conditional' },
  parallel: { title: 'Parallel', shape: 'fork', icon: 'fork', tone: 'tone-parallel' },
  fan_in: { title: 'Fan-in', shape: 'join', icon: 'join', tone: 'tone-fan-in' },
  wait: { title: 'Wait', shape: 'rect', icon: 'hourglass', tone: 'tone-wait' },
  manager_loop: { title: 'Manager loop', shape: 'house', icon: 'loop', tone: 'tone-manager' },
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
