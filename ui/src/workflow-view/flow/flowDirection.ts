import type { Side } from '../look/shapeGeometry';

/** Which way ranks advance, in ELK's words. */
export type FlowDirection = 'DOWN' | 'RIGHT' | 'UP' | 'LEFT';

const BY_RANKDIR: Record<string, FlowDirection> = {
  TB: 'DOWN',
  LR: 'RIGHT',
  BT: 'UP',
  RL: 'LEFT',
};

/** Maps a DOT `rankdir` (TB, LR, BT, RL; case-insensitive) to a direction; unknown values go down. */
export function directionOfRankdir(rankdir: string): FlowDirection {
  return BY_RANKDIR[rankdir.trim().toUpperCase()] ?? 'DOWN';
}

/** The sides edges enter (`target`) and leave (`source`) a node by. */
export function edgeSides(direction: FlowDirection): { target: Side; source: Side } {
  switch (direction) {
    case 'DOWN':
      return { target: 'top', source: 'bottom' };
    case 'UP':
      return { target: 'bottom', source: 'top' };
    case 'RIGHT':
      return { target: 'left', source: 'right' };
    case 'LEFT':
      return { target: 'right', source: 'left' };
  }
}
