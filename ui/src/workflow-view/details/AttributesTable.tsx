import { useState } from 'react';
import type { AttrScope } from '../../editing/attributeCatalog';
import { fieldFor } from '../../editing/fieldTypes';
import type { AttrEntry } from '../../generated/AttrEntry';
import type { HandlerKind } from '../../generated/HandlerKind';
import { EditableValue } from './EditableValue';
import { formatValue, keyLabel, originNote } from './formatValue';

/** What the table needs to let a person change values. */
export type AttributeEditing = {
  scope: AttrScope;
  kind: HandlerKind | null;
  /** Sets `key` to `value`, or removes it when `value` is null. */
  onChange: (key: string, value: string | null) => void;
};

function AddAttribute({ editing }: { editing: AttributeEditing }) {
  const [key, setKey] = useState('');
  const trimmed = key.trim();
  return (
    <tr className="attributes-table__add">
      <th scope="row">
        <input
          aria-label="New attribute name"
          placeholder="add attribute…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
      </th>
      <td>
        {trimmed !== '' ? (
          <EditableValue
            key={trimmed}
            field={fieldFor(editing.scope, trimmed, editing.kind)}
            value=""
            onCommit={(value) => {
              editing.onChange(trimmed, value);
              setKey('');
            }}
          >
            <span className="attributes-table__note">set value…</span>
          </EditableValue>
        ) : null}
      </td>
    </tr>
  );
}

/** Effective attributes as a two-column table; inherited values carry a note. With
 * `editing`, values can be changed, removed and added. */
export function AttributesTable({
  attrs,
  editing,
}: {
  attrs: readonly AttrEntry[];
  editing?: AttributeEditing;
}) {
  if (attrs.length === 0 && editing === undefined) return <p className="details__empty">No attributes.</p>;
  return (
    <table className="attributes-table">
      <tbody>
        {attrs.map((entry, i) => {
          const note = originNote(entry);
          const invalid = entry.value.type === 'invalid';
          const shown = <span className="attributes-table__value">{formatValue(entry.value, entry.raw)}</span>;
          return (
            <tr key={`${entry.key}-${i}`} className={invalid ? 'is-invalid' : undefined}>
              <th scope="row">
                <code>{keyLabel(entry)}</code>
              </th>
              <td>
                {editing !== undefined ? (
                  <EditableValue
                    field={fieldFor(editing.scope, entry.key, editing.kind)}
                    value={entry.raw}
                    onCommit={(value) => editing.onChange(entry.key, value)}
                  >
                    {shown}
                  </EditableValue>
                ) : (
                  shown
                )}
                {note !== null ? <span className="attributes-table__note">{note}</span> : null}
                {invalid ? <span className="attributes-table__note is-invalid">invalid</span> : null}
                {editing !== undefined && entry.origin === 'explicit' ? (
                  <button
                    type="button"
                    className="attributes-table__remove"
                    aria-label={`Remove ${entry.key}`}
                    onClick={() => editing.onChange(entry.key, null)}
                  >
                    ×
                  </button>
                ) : null}
              </td>
            </tr>
          );
        })}
        {editing !== undefined ? <AddAttribute editing={editing} /> : null}
      </tbody>
    </table>
  );
}
