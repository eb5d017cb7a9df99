import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import type { Diagnostic } from '../generated/Diagnostic';
import { dotToken, startState, type DotState } from './dotTokens';
import { utf16Offset } from './sourceOffsets';
import { syncAction } from './sourceSync';
import './source.css';

const dotLanguage = StreamLanguage.define<DotState>({
  name: 'dot',
  startState,
  token: dotToken,
  copyState: (state) => ({ ...state }),
  tokenTable: {
    comment: tags.comment,
    string: tags.string,
    keyword: tags.keyword,
    operator: tags.operator,
    attribute: tags.propertyName,
    number: tags.number,
    punctuation: tags.punctuation,
    name: tags.variableName,
  },
});

const dotHighlight = HighlightStyle.define([
  { tag: tags.comment, class: 'dot-comment' },
  { tag: tags.string, class: 'dot-string' },
  { tag: tags.keyword, class: 'dot-keyword' },
  { tag: tags.operator, class: 'dot-operator' },
  { tag: tags.propertyName, class: 'dot-attribute' },
  { tag: tags.number, class: 'dot-number' },
]);

/** The workflow's diagnostics as editor markers (those without a span, or in another file, are left out). */
function markers(text: string, diagnostics: readonly Diagnostic[]): LintDiagnostic[] {
  return diagnostics
    .filter((d) => d.span !== null && d.file === null)
    .map((d) => {
      const span = d.span!;
      const from = utf16Offset(text, span.start);
      const to = Math.max(from, utf16Offset(text, span.end));
      return {
        from,
        to: Math.min(to, text.length),
        severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
        message: d.message,
        source: d.rule,
      };
    });
}

/** How many recent typed texts are remembered to recognise their echo. */
const TYPED_KEPT = 64;

/**
 * The DOT text of the open workflow in CodeMirror, with highlighting and the diagnostics
 * marked inline. Typing calls `onChange` with the whole text; a `source` that changes from
 * outside (a canvas edit, undo) replaces only what differs, and an older echo of the
 * person's own typing is ignored (see sourceSync.ts).
 */
export function SourceView({
  source,
  diagnostics,
  onChange,
}: {
  source: string;
  diagnostics: readonly Diagnostic[];
  onChange: (text: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  // Texts typing produced since the last document from elsewhere (see sourceSync.ts).
  const typed = useRef<string[]>([]);

  useEffect(() => {
    if (host.current === null) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: source,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          dotLanguage,
          syntaxHighlighting(dotHighlight),
          lintGutter(),
          EditorView.lineWrapping,
          EditorView.updateListener.of((update) => {
            const byPerson = update.transactions.some((t) => t.isUserEvent('input') || t.isUserEvent('delete') || t.isUserEvent('undo') || t.isUserEvent('redo'));
            if (!update.docChanged || !byPerson) return;
            const text = update.state.doc.toString();
            typed.current = [...typed.current.slice(-(TYPED_KEPT - 1)), text];
            changed.current(text);
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; later sources arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const action = syncAction(editor.state.doc.toString(), source, typed.current);
    if (action.kind === 'replace') {
      typed.current = [];
      editor.dispatch({ changes: action.change });
    }
    // Markers belong to `source`; while the person has typed past it they wait for the next check.
    if (editor.state.doc.toString() === source) {
      editor.dispatch(setDiagnostics(editor.state, markers(source, diagnostics)));
    }
  }, [source, diagnostics]);

  return <div className="source-view" ref={host} data-testid="source-view" aria-label="Workflow source" />;
}
