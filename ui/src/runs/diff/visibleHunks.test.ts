import { describe, expect, it } from 'vitest';
import type { DiffHunk } from '../../generated/DiffHunk';
import type { DiffLine } from '../../generated/DiffLine';
import { visibleHunks } from './visibleHunks';

const line = (n: number): DiffLine => ({ kind: 'context', text: `l${n}`, old_line: n, new_line: n });
const hunk = (from: number, count: number): DiffHunk => ({
  header: `@@ -${from},${count} +${from},${count} @@`,
  old_start: from,
  old_count: count,
  new_start: from,
  new_count: count,
  lines: Array.from({ length: count }, (_, i) => line(from + i)),
});

describe('visibleHunks', () => {
  const hunks = [hunk(1, 3), hunk(10, 3)];

  it('keeps everything under the limit', () => {
    expect(visibleHunks(hunks, 6)).toEqual(hunks);
  });

  it('cuts the hunk the limit falls in and drops the rest', () => {
    const shown = visibleHunks(hunks, 4);
    expect(shown.map((h) => h.lines.map((l) => l.text))).toEqual([['l1', 'l2', 'l3'], ['l10']]);
    expect(visibleHunks(hunks, 3)).toHaveLength(1);
    expect(visibleHunks(hunks, 0)).toEqual([]);
  });
});
