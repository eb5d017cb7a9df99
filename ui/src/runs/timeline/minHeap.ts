/** A binary min-heap ordered by `less`; push and pop are O(log n). */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  /** How many items it holds. */
  get size(): number {
    return this.items.length;
  }

  /** The smallest item, without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds an item. */
  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.lessAt(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Removes and returns the smallest item. */
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.lessAt(left, smallest)) smallest = left;
      if (right < items.length && this.lessAt(right, smallest)) smallest = right;
      if (smallest === i) return top;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private lessAt(i: number, j: number): boolean {
    const a = this.items[i];
    const b = this.items[j];
    return a !== undefined && b !== undefined && this.less(a, b);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i];
    const b = this.items[j];
    if (a === undefined || b === undefined) return;
    this.items[i] = b;
    this.items[j] = a;
  }
}
