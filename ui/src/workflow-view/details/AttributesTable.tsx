import { useState } from 'react';
import type { AttrScope } from '../../editing/attributeCatalog';
import { fieldFor } from '../../editing/fieldTypes';
import type { AttrEntry } from '../../generated/AttrEntry';
import type { HandlerKind } from '../../generated/HandlerKind';
import { EditableValue } from './EditableValue';
import { formatValue, keyLabel, originNote } from './formatValue';
import { ReferencePreview } from './ReferencePreview';

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

/** The file a prompt names (`@prompts/plan.md`), when this entry is such a prompt. */
function promptReference(entry: AttrEntry, editing: AttributeEditing | undefined): string | null {
  if (entry.value.type !== 'file_ref') return null;
  const markdown =
    editing === undefined
      ? entry.canonical === 'prompt'
      : fieldFor(editing.scope, entry.key, editing.kind).input.input === 'markdown';
  return markdown ? entry.value.value.path : null;
}

/** Inputs that get the whole width of the table while they are edited. */
const WIDE_INPUTS: ReadonlySet<string> = new Set(['markdown', 'stylesheet', 'condition']);

function AttributeRow({ entry, editing }: { entry: AttrEntry; editing: AttributeEditing | undefined }) {
  const [beingEdited, setBeingEdited] = useState(false);
  const note = originNote(entry);
  const invalid = entry.value.type === 'invalid';
  const reference = promptReference(entry, editing);
  const field = editing === undefined ? null : fieldFor(editing.scope, entry.key, editing.kind);
  // The th stays in the tree (hidden) so the editor in the td keeps its state.
  const wide = beingEdited && field !== null && WIDE_INPUTS.has(field.input.input);
  const shown = <span className="attributes-table__value">{formatValue(entry.value, entry.raw)}</span>;
  const rowClass = [invalid ? 'is-invalid' : '', wide ? 'is-wide-editing' : ''].filter(Boolean).join(' ');
  return (
    <>
      <tr className={rowClass === '' ? undefined : rowClass}>
        <th scope="row" hidden={wide}>
          <code>{keyLabel(entry)}</code>
        </th>
        <td colSpan={wide ? 2 : undefined}>
          {wide ? <code className="attributes-table__wide-key">{keyLabel(entry)}</code> : null}
          {editing !== undefined && field !== null ? (
            <EditableValue
              field={field}
              value={entry.raw}
              onCommit={(value) => editing.onChange(entry.key, value)}
              onEditingChange={setBeingEdited}
            >
              {shown}
            </EditableValue>
          ) : (
            shown
          )}
          {note !== null && !beingEdited ? <span className="attributes-table__note">{note}</span> : null}
          {invalid && !beingEdited ? <span className="attributes-table__note is-invalid">invalid</span> : null}
          {editing !== undefined && entry.origin === 'explicit' && !beingEdited ? (
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
      {reference !== null && !beingEdited ? (
        <tr className="attributes-table__preview">
          <td colSpan={2}>
            <ReferencePreview reference={reference} collapsible />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** Effective attributes as a two-column table; inherited values carry a note, and a prompt
 * kept in a file shows that file. With `editing`, values can be changed, removed and added. */
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
        {attrs.map((entry, i) => (
          <AttributeRow key={`${entry.key}-${i}`} entry={entry} editing={editing} />
        ))}
        {editing !== undefined ? <AddAttribute editing={editing} /> : null}
      </tbody>
    </table>
  );
}
