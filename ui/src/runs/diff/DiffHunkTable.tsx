import type { DiffHunk, DiffLineKind } from './parsePatch';

const SIGN: Record<DiffLineKind, string> = { add: '+', del: '-', context: ' ', meta: '' };

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
            <tr key={`${h}:${i}`} className={`diff-line is-${line.kind}`}>
              <td className="diff-line__num" data-line={line.oldLine ?? undefined} />
              <td className="diff-line__num" data-line={line.newLine ?? undefined} />
              <td className="diff-line__sign" data-sign={SIGN[line.kind]} />
              <td className="diff-line__text">{line.text}</td>
            </tr>
          )),
        ])}
      </tbody>
    </table>
  );
}
