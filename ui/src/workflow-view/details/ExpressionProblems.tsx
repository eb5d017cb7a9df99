import { MessageText } from '../../diagnostics/MessageText';
import { SeverityIcon } from '../../diagnostics/SeverityIcon';
import type { ExpressionKind } from '../../generated/ExpressionKind';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';
import { problemMessage, problemPosition } from './expressionMarks';
import type { ExpressionCheck } from './useExpressionCheck';

/**
 * Under a condition or stylesheet editor: "✓ parses", or each problem with where it is;
 * choosing a problem selects its range in the editor. Problems of text typed since are shown
 * faded until the new answer comes.
 */
export function ExpressionProblems({
  id,
  kind,
  text,
  check,
  onReveal,
}: {
  id: string;
  kind: ExpressionKind;
  text: string;
  check: ExpressionCheck;
  onReveal: (problem: ExpressionProblem) => void;
}) {
  const problems = check.status === 'problems' ? check.problems : check.status === 'checking' ? check.previous : [];
  const stale = check.status === 'checking';
  if (check.status === 'unavailable') {
    return (
      <span id={id} className="expression-status">
        Could not check: {check.message}
      </span>
    );
  }
  if (problems === null) {
    return (
      <span id={id} className="expression-status" role="status">
        Checking…
      </span>
    );
  }
  if (problems.length === 0) {
    // While newer text is being checked, the last verdict stays, faded.
    return (
      <span
        id={id}
        className={stale ? 'expression-status is-ok is-stale' : 'expression-status is-ok'}
        data-testid={stale ? undefined : 'expression-ok'}
      >
        ✓ parses
      </span>
    );
  }
  return (
    <ul
      id={id}
      className={stale ? 'expression-problems is-stale' : 'expression-problems'}
      aria-label={kind === 'condition' ? 'Problems in the condition' : 'Problems in the stylesheet'}
      data-testid="expression-problems"
    >
      {problems.map((problem, i) => (
        <li key={i} className="severity-error">
          <button
            type="button"
            className="expression-problem"
            data-testid={stale ? undefined : 'expression-problem'}
            onClick={() => onReveal(problem)}
            disabled={stale}
            title="Select this part of the text"
          >
            <SeverityIcon severity="error" size={12} />
            <code className="expression-problem__position">{problemPosition(kind, text, problem)}</code>
            <span>
              <MessageText text={problemMessage(problem)} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
