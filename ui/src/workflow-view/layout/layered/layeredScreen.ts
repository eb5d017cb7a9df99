/**
 * Turning the layered engine's layout space onto the screen, into flat buffers: numbers in
 * typed arrays rather than an object per box and point, so a 20,000-node workflow is placed
 * without tens of thousands of short-lived objects.
 */
import type { FlowDirection } from '../../flow/flowDirection';
import type { PointList } from '../pointList';
import { isVertical } from './layeredInput';

/** Turns layout-space points and boxes (cross, along) onto the screen for the flow's direction. */
export class Screen {
  readonly vertical: boolean;

  constructor(private readonly direction: FlowDirection) {
    this.vertical = isVertical(direction);
  }

  x(cross: number, along: number): number {
    switch (this.direction) {
      case 'DOWN':
      case 'UP':
        return cross;
      case 'RIGHT':
        return along;
      case 'LEFT':
        return -along;
    }
  }

  y(cross: number, along: number): number {
    switch (this.direction) {
      case 'DOWN':
        return along;
      case 'UP':
        return -along;
      case 'RIGHT':
      case 'LEFT':
        return cross;
    }
  }

  /** Writes the screen box (x, y, width, height) of a layout-space box at `into[at..at + 4)`. */
  box(crossLow: number, crossHigh: number, alongLow: number, alongHigh: number, into: Float64Array, at: number): void {
    const ax = this.x(crossLow, alongLow);
    const ay = this.y(crossLow, alongLow);
    const bx = this.x(crossHigh, alongHigh);
    const by = this.y(crossHigh, alongHigh);
    into[at] = Math.min(ax, bx);
    into[at + 1] = Math.min(ay, by);
    into[at + 2] = Math.abs(bx - ax);
    into[at + 3] = Math.abs(by - ay);
  }
}

/**
 * Appends `route` to `out` with a step in the middle of every slanted leg (across the flow,
 * halfway along it), so edges run straight along and across like the ELK canvas's instead of
 * diagonally.
 */
export function appendOrthogonal(route: PointList, out: PointList, vertical: boolean): void {
  for (let i = 0; i < route.length; i++) {
    const x = route.x(i);
    const y = route.y(i);
    if (i > 0) {
      const bx = route.x(i - 1);
      const by = route.y(i - 1);
      if (Math.abs(x - bx) > 0.5 && Math.abs(y - by) > 0.5) {
        if (vertical) {
          const middle = (by + y) / 2;
          out.push(bx, middle);
          out.push(x, middle);
        } else {
          const middle = (bx + x) / 2;
          out.push(middle, by);
          out.push(middle, y);
        }
      }
    }
    out.push(x, y);
  }
}
