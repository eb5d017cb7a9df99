import { useState, type ReactNode } from 'react';
import type { InspectorField } from '../../editing/fieldTypes';
import { ChoiceValueEditor } from './ChoiceValueEditor';
import { ExpressionValueEditor } from './ExpressionValueEditor';
import { MarkdownValueEditor } from './MarkdownValueEditor';
import { TextValueEditor } from './TextValueEditor';
import type { ValueEditorProps } from './useValueCommit';
import './value-editors.css';

function ValueEditor(props: ValueEditorProps) {
  const { input } = props.field;
  switch (input.input) {
    case 'enum':
      return <ChoiceValueEditor {...props} options={input.options} />;
    case 'boolean':
      return <ChoiceValueEditor {...props} options={['true', 'false']} />;
    case 'condition':
    case 'stylesheet':
      return <ExpressionValueEditor {...props} kind={input.input} />;
    case 'markdown':
      return <MarkdownValueEditor {...props} />;
    case 'text':
    case 'duration':
    case 'integer':
    case 'number':
      return <TextValueEditor {...props} />;
  }
}

/**
 * An attribute value that turns into the field's editor on click: a select for enums and
 * booleans, a checked text area for conditions and stylesheets, Markdown with a preview for
 * prompts, a plain input otherwise. `onEditingChange` hears when the editor opens and closes.
 */
export function EditableValue({
  field,
  value,
  children,
  onCommit,
  onEditingChange,
}: {
  field: InspectorField;
  value: string;
  children: ReactNode;
  onCommit: (value: string) => void;
  onEditingChange?: (editing: boolean) => void;
}) {
  const [editing, setEditingState] = useState(false);
  const setEditing = (next: boolean) => {
    setEditingState(next);
    onEditingChange?.(next);
  };
  if (editing) {
    return <ValueEditor field={field} value={value} onCommit={onCommit} onClose={() => setEditing(false)} />;
  }
  return (
    <button
      type="button"
      className="attributes-table__edit"
      title={`Edit ${field.key}`}
      data-testid={`edit-attr-${field.key}`}
      onClick={() => setEditing(true)}
    >
      {children}
    </button>
  );
}
