import { useEffect, useState } from 'react';
import type { Api } from '../api/Api';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import { shownValue, useApiRead } from '../api/useApiRead';
import { inTextField } from '../app/useEditingShortcuts';
import type { RunRef } from '../generated/RunRef';
import { choiceText } from './gateChoice';

const pendingGates = (api: Api, request: RunRef) => api.pendingGates(request);
/** The gate may be registered a moment after the event that announced it: ask again this often until it is there. */
const ASK_AGAIN_MS = 1500;

/**
 * The human gates a run waits at: the question, its choices with their accelerator keys
 * (pressing the key answers), and freeform text when the gate takes it.
 */
export function GateDock({ runId, waiting, onAnswered }: { runId: string; waiting: boolean; onAnswered: () => void }) {
  const api = useApi();
  const pending = useApiRead(waiting ? { run_id: runId } : null, pendingGates);
  // Gates answered here, hidden before the list is read again.
  const [answered, setAnswered] = useState<readonly string[]>([]);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [answerError, setAnswerError] = useState<string | null>(null);
  const gates = waiting ? (shownValue(pending) ?? []).filter((g) => !answered.includes(g.question_id)) : [];
  const error = answerError ?? (pending.state === 'failed' ? pending.error.message : null);

  // Ask again until a gate is there (not while one is shown).
  const noneYet = waiting && pending.state === 'ready' && pending.value.length === 0;
  const { reload } = pending;
  useEffect(() => {
    if (!noneYet) return;
    const again = setTimeout(reload, ASK_AGAIN_MS);
    return () => clearTimeout(again);
  }, [noneYet, reload, pending]);

  const gate = gates[0];
  const answer = (value: string, freeform: boolean) => {
    if (gate === undefined || busy) return;
    setBusy(true);
    setAnswerError(null);
    api.answerGate({ run_id: runId, question_id: gate.question_id, answer: value, freeform }).then(
      () => {
        setBusy(false);
        setText('');
        setAnswered((all) => [...all, gate.question_id]);
        // Another gate (a parallel branch) may be waiting already.
        reload();
        onAnswered();
      },
      (reason: unknown) => {
        setBusy(false);
        setAnswerError(toApiError(reason).message);
      },
    );
  };

  useEffect(() => {
    if (gate === undefined) return;
    const onKey = (e: KeyboardEvent) => {
      // Not for keys a text field, an open dialog or another handler is taking.
      if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.defaultPrevented || inTextField(e.target)) return;
      if (document.querySelector('[aria-modal="true"]') !== null) return;
      const choice = gate.choices.find((c) => c.key.toLowerCase() === e.key.toLowerCase());
      if (choice !== undefined) {
        e.preventDefault();
        answer(choice.key, false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (gate === undefined) return null;
  return (
    <aside className="gate-dock" role="region" aria-label="Waiting for you" data-testid="gate-dock">
      <div className="gate-dock__question">
        <span className="gate-dock__node">{gate.node_id} asks</span>
        <p>{gate.text}</p>
      </div>
      {gate.choices.length > 0 ? (
        <div className="gate-dock__choices">
          {gate.choices.map((choice) => (
            <button
              key={choice.key}
              type="button"
              className="button"
              disabled={busy}
              onClick={() => answer(choice.key, false)}
              title={`Goes to ${choice.target}`}
              aria-keyshortcuts={choice.key}
            >
              <kbd>{choice.key}</kbd> {choiceText(choice.label)}
            </button>
          ))}
        </div>
      ) : null}
      {gate.allow_freeform ? (
        <form
          className="gate-dock__freeform"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() !== '') answer(text, true);
          }}
        >
          <textarea
            className="input"
            aria-label="Your answer"
            // "Or …" only reads right beside choice buttons; a gate without choices takes text alone.
            placeholder={gate.choices.length > 0 ? 'Or write an answer…' : 'Write your answer…'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={2}
          />
          <button type="submit" className="button is-primary" disabled={busy || text.trim() === ''}>
            Send
          </button>
        </form>
      ) : null}
      {gates.length > 1 ? <p className="muted">{gates.length - 1} more waiting after this one.</p> : null}
      {error !== null ? (
        <p className="banner is-error" role="alert">
          {error}
        </p>
      ) : null}
    </aside>
  );
}
