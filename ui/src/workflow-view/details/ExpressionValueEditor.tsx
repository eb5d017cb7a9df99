import { useId, useRef, useState } from 'react';
import type { ExpressionKind } from '../../generated/ExpressionKind';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';
import { EditorFooter } from './EditorFooter';
import { ExpressionField } from './ExpressionField';
import { ExpressionProblems } from './ExpressionProblems';
import { useExpressionCheck } from './useExpressionCheck';
import { editorKeys, useValueCommit, type ValueEditorProps } from './useValueCommit';


/**
 * Editing an edge condition or the model stylesheet: checked as it is typed, with each
 * problem listed and marked in the text. A value with problems is not applied; trying to
 * shows the first problem instead. (When the check cannot be made, the value is applied and
 * the workflow's own validation reports it.)
 */
export function ExpressionValueEditor(props: ValueEditorProps & { kind: ExpressionKind }) {
  const { field, value, kind, onClose } = props;
  const [draft, setDraft] = useState(value);
  const { problem, refuse, commit } = useValueCommit(props);
  const { check, problemsNow } = useExpressionCheck(kind, draft);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const problemsId = useId();
  const multiline = kind === 'stylesheet';

  const reveal = (p: ExpressionProblem) => {
    const node = area.current;
    if (node === null) return;
    node.focus();
    node.setSelectionRange(p.start, Math.max(p.start, p.end));
  };

  const apply = async () => {
    const text = draft;
    const problems = await problemsNow();
    if (area.current !== null && area.current.value !== text) return; // typed on meanwhile
    const first = problems?.[0];
    if (first !== undefined && problems !== null) {
      const what = problems.length === 1 ? 'the problem' : `the ${problems.length} problems`;
      refuse(`Not applied: the ${kind} does not parse; fix ${what} above first.`);
      reveal(first);
      return;
    }
    commit(text);
  };

  return (
    <div className="attributes-table__editor">
      <ExpressionField
        label={field.key}
        value={draft}
        rows={multiline ? 3 : 1}
        marks={check.status === 'problems' ? check.problems : []}
        invalid={check.status === 'problems'}
        describedBy={problemsId}
        fieldRef={area}
        onChange={(text) => {
          setDraft(text);
          refuse(null);
        }}
        onKeyDown={editorKeys({ multiline, onApply: () => void apply(), onCancel: onClose })}
      />
      <ExpressionProblems id={problemsId} kind={kind} text={draft} check={check} onReveal={reveal} />
      <EditorFooter multiline={multiline} problem={problem} onApply={() => void apply()} />
    </div>
  );
}
