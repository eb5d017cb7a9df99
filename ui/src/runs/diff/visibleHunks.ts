import type { DiffHunk } from '../../generated/DiffHunk';
import type { FileChange } from '../../generated/FileChange';

/** Files with more lines than this start folded behind a "Show" button. */
export const FOLD_LINES = 400;

/** Lines revealed per "Show" / "Show more" click. */
export const SHOW_STEP = 2000;

/** Lines in all of a file's hunks (what rendering the file costs). */
export function lineCount(file: FileChange): number {
  return file.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
}

/** The first `limit` lines of `hunks`, hunk by hunk (the last one cut short when needed). */
export function visibleHunks(hunks: DiffHunk[], limit: number): DiffHunk[] {
  const shown: DiffHunk[] = [];
  let left = limit;
  for (const hunk of hunks) {
    if (left <= 0) break;
    shown.push(hunk.lines.length <= left ? hunk : { ...hunk, lines: hunk.lines.slice(0, left) });
    left -= hunk.lines.length;
  }
  return shown;
}
