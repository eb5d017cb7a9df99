/**
 * A growable list of points, x and y one after the other in a typed array: what the layout
 * engines and the fold write routes into, so a long flow's routes need no object per point.
 */
export class PointList {
  data = new Float64Array(64);
  /** How many points it holds. */
  length = 0;

  push(x: number, y: number): void {
    if (2 * this.length + 2 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[2 * this.length] = x;
    this.data[2 * this.length + 1] = y;
    this.length++;
  }

  x(i: number): number {
    return this.data[2 * i] ?? 0;
  }

  y(i: number): number {
    return this.data[2 * i + 1] ?? 0;
  }

  /** Drops the last point. */
  pop(): void {
    if (this.length > 0) this.length--;
  }

  clear(): void {
    this.length = 0;
  }

  /** Its points, as a typed array of their own. */
  toArray(): Float64Array {
    return this.data.slice(0, 2 * this.length);
  }
}

