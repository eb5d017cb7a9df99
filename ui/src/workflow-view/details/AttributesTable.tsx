import type { AttrEntry } from '../../generated/AttrEntry';
import { formatValue, keyLabel, originNote } from './formatValue';

/** Effective attributes as a two-column table; inherited values carry a note. */
export function AttributesTable({ attrs }: { attrs: readonly AttrEntry[] }) {
  if (attrs.length === 0) return <p className="details__empty">No attributes.</p>;
  return (
    <table className="attributes-table">
      <tbody>
        {attrs.map((entry, i) => {
          const note = originNote(entry);
          const invalid = entry.value.type === 'invalid';
          return (
            <tr key={`${entry.key}-${i}`} className={invalid ? 'is-invalid' : undefined}>
              <th scope="row">
                <code>{keyLabel(entry)}</code>
              </th>
              <td>
                <span className="attributes-table__value">{formatValue(entry.value, entry.raw)}</span>
                {note !== null ? <span className="attributes-table__note">{note}</span> : null}
                {invalid ? <span className="attributes-table__note is-invalid">invalid</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
