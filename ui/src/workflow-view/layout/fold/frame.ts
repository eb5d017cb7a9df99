import type { FlowDirection } from '../../flow/flowDirection';

/**
 * Turns screen points into the flow's own frame and back: `along` the way ranks advance (x for
 * RIGHT, -x for LEFT, y for DOWN and -y for UP), `cross` across them (the other axis, growing
 * right or down), so bands stacked across run down the screen for a horizontal flow and to the
 * right for a vertical one. Works on numbers, so a long flow's points need no object each.
 */
export class Frame {
  constructor(readonly direction: FlowDirection) {}

  get horizontal(): boolean {
    return this.direction === 'RIGHT' || this.direction === 'LEFT';
  }

  /** How far along the flow screen point (x, y) is. */
  along(x: number, y: number): number {
    switch (this.direction) {
      case 'RIGHT':
        return x;
      case 'LEFT':
        return -x;
      case 'DOWN':
        return y;
      case 'UP':
        return -y;
    }
  }

  /** How far across the flow screen point (x, y) is. */
  cross(x: number, y: number): number {
    return this.horizontal ? y : x;
  }

  /** The screen x of frame point (along, cross). */
  x(along: number, cross: number): number {
    switch (this.direction) {
      case 'RIGHT':
        return along;
      case 'LEFT':
        return -along;
      case 'DOWN':
      case 'UP':
        return cross;
    }
  }

  /** The screen y of frame point (along, cross). */
  y(along: number, cross: number): number {
    switch (this.direction) {
      case 'RIGHT':
      case 'LEFT':
        return cross;
      case 'DOWN':
        return along;
      case 'UP':
        return -along;
    }
  }

  /**
   * Writes the frame box (`alongLow, alongHigh, crossLow, crossHigh`) of the screen box at
   * (x, y), `width` × `height`, at `into[at..at + 4)`.
   */
  boxToFrame(x: number, y: number, width: number, height: number, into: Float64Array, at: number): void {
    const aAlong = this.along(x, y);
    const aCross = this.cross(x, y);
    const bAlong = this.along(x + width, y + height);
    const bCross = this.cross(x + width, y + height);
    into[at] = Math.min(aAlong, bAlong);
    into[at + 1] = Math.max(aAlong, bAlong);
    into[at + 2] = Math.min(aCross, bCross);
    into[at + 3] = Math.max(aCross, bCross);
  }

  /**
   * Writes the screen box (x, y, width, height) of the frame box from (`alongLow`,
   * `crossLow`) to (`alongHigh`, `crossHigh`) at `into[at..at + 4)`: `boxToFrame` undone.
   */
  boxToScreen(alongLow: number, alongHigh: number, crossLow: number, crossHigh: number, into: Float64Array, at: number): void {
    const ax = this.x(alongLow, crossLow);
    const ay = this.y(alongLow, crossLow);
    const bx = this.x(alongHigh, crossHigh);
    const by = this.y(alongHigh, crossHigh);
    into[at] = Math.min(ax, bx);
    into[at + 1] = Math.min(ay, by);
    into[at + 2] = Math.abs(bx - ax);
    into[at + 3] = Math.abs(by - ay);
  }

  /** A canvas of `width` × `height` pixels in this frame: how much room there is along and across. */
  canvas(width: number, height: number): { along: number; cross: number } {
    return this.horizontal ? { along: width, cross: height } : { along: height, cross: width };
  }
}
