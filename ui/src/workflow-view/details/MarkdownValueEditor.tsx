import { useState } from 'react';
import { MarkdownView } from '../../markdown/MarkdownView';
import { EditorFooter } from './EditorFooter';
import { referencedPath } from '../../editing/fileReference';
import { ReferencePreview } from './ReferencePreview';
import { editorKeys, useValueCommit, type ValueEditorProps } from './useValueCommit';

/** Wait for typing to pause before reading a file named in the draft. */
const REFERENCE_DELAY_MS = 250;

type Mode = 'write' | 'preview';

/**
 * Editing a prompt: Markdown written in a text area, with a Preview tab that renders it.
 * When the draft is `@path`, the file it names is shown (rendered) instead, in both tabs.
 */
export function MarkdownValueEditor(props: ValueEditorProps) {
  const { field, value, onClose } = props;
  const [draft, setDraft] = useState(value);
  const [mode, setMode] = useState<Mode>('write');
  const { problem, refuse, commit } = useValueCommit(props);
  const reference = referencedPath(draft);
  const apply = () => commit(draft);
  const keys = editorKeys({ multiline: true, onApply: apply, onCancel: onClose });

  const tab = (which: Mode, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === which}
      className={mode === which ? 'markdown-editor__tab is-active' : 'markdown-editor__tab'}
      data-testid={`markdown-${which}`}
      onClick={() => setMode(which)}
    >
      {label}
    </button>
  );

  return (
    <div className="attributes-table__editor markdown-editor" onKeyDown={mode === 'preview' ? keys : undefined}>
      <div className="markdown-editor__tabs" role="tablist" aria-label={`${field.key} editor`}>
        {tab('write', 'Write')}
        {tab('preview', 'Preview')}
      </div>
      {mode === 'write' ? (
        <textarea
          autoFocus
          rows={reference === null ? 8 : 2}
          aria-label={field.key}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            refuse(null);
          }}
          onKeyDown={keys}
        />
      ) : reference === null ? (
        <div className="markdown-editor__preview" role="tabpanel" tabIndex={0} data-testid="markdown-preview">
          <MarkdownView source={draft} />
        </div>
      ) : null}
      {reference !== null ? <ReferencePreview reference={reference} delayMs={REFERENCE_DELAY_MS} /> : null}
      <EditorFooter multiline problem={problem} onApply={apply} />
    </div>
  );
}
