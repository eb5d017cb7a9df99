import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ExpressionKind } from '../../generated/ExpressionKind';
import type { ExpressionProblem } from '../../generated/ExpressionProblem';
import { latestAnswer, type Settled } from './latestAnswer';

/** Pause in typing before the text is checked. */
const CHECK_DELAY_MS = 150;

/** What is known about the text being typed. */
export type ExpressionCheck =
  /** Not checked yet; `previous` are the problems of the text before the last keystrokes
   * (null when nothing was answered yet, or the check failed). */
  | { status: 'checking'; previous: readonly ExpressionProblem[] | null }
  | { status: 'ok' }
  | { status: 'problems'; problems: readonly ExpressionProblem[] }
  /** The check itself failed (the backend is unreachable, say). */
  | { status: 'unavailable'; message: string };

type Answer = { text: string; answer: Settled<ExpressionProblem[]> };

/**
 * Checks `text` as a condition or stylesheet while it is typed (after a short pause; only the
 * latest answer counts). `problemsNow` gives the current text's problems, asking at once when
 * they are not known yet; null when the check could not be made.
 */
export function useExpressionCheck(
  kind: ExpressionKind,
  text: string,
): { check: ExpressionCheck; problemsNow: () => Promise<readonly ExpressionProblem[] | null> } {
  const api = useApi();
  const [last, setLast] = useState<Answer | null>(null);
  const live = useMemo(
    () =>
      latestAnswer<string, ExpressionProblem[]>({
        ask: (t) => api.checkExpression({ kind, text: t }),
        onAnswer: (t, answer) => setLast({ text: t, answer }),
        delayMs: CHECK_DELAY_MS,
      }),
    [api, kind],
  );
  useEffect(() => live.request(text), [live, text]);
  useEffect(() => () => live.cancel(), [live]);

  const current = useRef({ text, last });
  current.current = { text, last };

  const problemsNow = useCallback(async () => {
    const { text: now, last: known } = current.current;
    const answer = known !== null && known.text === now ? known.answer : await live.now(now);
    return answer.ok ? answer.value : null;
  }, [live]);

  const check = useMemo((): ExpressionCheck => {
    if (last === null) return { status: 'checking', previous: null };
    if (last.text !== text) return { status: 'checking', previous: last.answer.ok ? last.answer.value : null };
    if (!last.answer.ok) return { status: 'unavailable', message: toApiError(last.answer.error).message };
    return last.answer.value.length === 0 ? { status: 'ok' } : { status: 'problems', problems: last.answer.value };
  }, [last, text]);

  return { check, problemsNow };
}
