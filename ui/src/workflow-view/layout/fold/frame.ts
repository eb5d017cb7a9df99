import type { FlowDirection } from '../../flow/flowDirection';
import type { Point } from '../../look/shapeGeometry';

/** A point in the flow's own frame: `along` the way ranks advance, `cross` across them. */
export interface FramePoint {
  along: number;
  cross: number;
}

/** A box in the flow's frame. */
export interface FrameBox {
  alongLow: number;
  alongHigh: number;
  crossLow: number;
  crossHigh: number;
}

/** A box on the screen (flow coordinates). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Turns screen points into the flow's frame and back: along is x for RIGHT, -x for LEFT, y for
 * DOWN and -y for UP; across is the other axis, growing right or down, so bands stacked
 * across run down the screen for a horizontal flow and to the right for a vertical one.
 */
export class Frame {
  constructor(readonly direction: FlowDirection) {}

  get horizontal(): boolean {
    return this.direction === 'RIGHT' || this.direction === 'LEFT';
  }

  toFrame(p: Point): FramePoint {
    switch (this.direction) {
      case 'RIGHT':
        return { along: p.x, cross: p.y };
      case 'LEFT':
        return { along: -p.x, cross: p.y };
      case 'DOWN':
        return { along: p.y, cross: p.x };
      case 'UP':
        return { along: -p.y, cross: p.x };
    }
  }

  toScreen(p: FramePoint): Point {
    switch (this.direction) {
      case 'RIGHT':
        return { x: p.along, y: p.cross };
      case 'LEFT':
        return { x: -p.along, y: p.cross };
      case 'DOWN':
        return { x: p.cross, y: p.along };
      case 'UP':
        return { x: p.cross, y: -p.along };
    }
  }

  boxToFrame(box: ScreenBox): FrameBox {
    const a = this.toFrame({ x: box.x, y: box.y });
    const b = this.toFrame({ x: box.x + box.width, y: box.y + box.height });
    return {
      alongLow: Math.min(a.along, b.along),
      alongHigh: Math.max(a.along, b.along),
      crossLow: Math.min(a.cross, b.cross),
      crossHigh: Math.max(a.cross, b.cross),
    };
  }

  boxToScreen(box: FrameBox): ScreenBox {
    const a = this.toScreen({ along: box.alongLow, cross: box.crossLow });
    const b = this.toScreen({ along: box.alongHigh, cross: box.crossHigh });
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
  }

  /** A canvas of `width` × `height` pixels in this frame: how much room there is along and across. */
  canvas(width: number, height: number): { along: number; cross: number } {
    return this.horizontal ? { along: width, cross: height } : { along: height, cross: width };
  }
}
