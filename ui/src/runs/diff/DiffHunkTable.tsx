import type { DiffHunk } from '../../generated/DiffHunk';
import type { LineKind } from '../../generated/LineKind';

/** The CSS modifier and the sign CSS draws for each kind of line. */
const LOOK: Record<LineKind, { css: string; sign: string }> = {
  added: { css: 'add', sign: '+' },
  removed: { css: 'del', sign: '-' },
  context: { css: 'context', sign: ' ' },
  no_newline: { css: 'meta', sign: '' },
};

/**
 * Hunks as a table: old and new line numbers, the sign and the text. Numbers and signs
 * are drawn by CSS, so copying a selection copies only the code.
 */
export function DiffHunkTable({ hunks }: { hunks: DiffHunk[] }) {
  return (
    <table className="diff-hunks">
      <tbody>
        {hunks.map((hunk, h) => [
          <tr key={`h${h}`} className="diff-hunks__header">
            <td colSpan={4}>{hunk.header}</td>
          </tr>,
          ...hunk.lines.map((line, i) => (
            <tr key={`${h}:${i}`} className={`diff-line is-${LOOK[line.kind].css}`}>
              <td className="diff-line__num" data-line={line.old_line ?? undefined} />
              <td className="diff-line__num" data-line={line.new_line ?? undefined} />
              <td className="diff-line__sign" data-sign={LOOK[line.kind].sign} />
              <td className="diff-line__text">{line.text}</td>
            </tr>
          )),
        ])}
      </tbody>
    </table>
  );
}
