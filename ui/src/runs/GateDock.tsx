import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import { inTextField } from '../app/useEditingShortcuts';
import type { PendingGate } from '../generated/PendingGate';


/**
 * The human gates a run waits at: the question, its choices with their accelerator keys
 * (pressing the key answers), and freeform text when the gate takes it.
 */
export function GateDock({ runId, waiting, onAnswered }: { runId: string; waiting: boolean; onAnswered: () => void }) {
  const api = useApi();
  const [gates, setGates] = useState<PendingGate[]>([]);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!waiting) {
      setGates([]);
      return;
    }
    let live = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    api.pendingGates({ run_id: runId }).then(
      (found) => {
        if (!live) return;
        setGates(found);
        // The gate may be registered a moment after the event that announced it: ask again
        // until it is there (not while one is shown).
        if (found.length === 0) again = setTimeout(() => setTick((t) => t + 1), 1500);
      },
      (reason: unknown) => live && setError(toApiError(reason).message),
    );
    return () => {
      live = false;
      clearTimeout(again);
    };
  }, [api, runId, waiting, tick]);

  const gate = gates[0];
  const answer = (value: string, freeform: boolean) => {
    if (gate === undefined || busy) return;
    setBusy(true);
    setError(null);
    api.answerGate({ run_id: runId, question_id: gate.question_id, answer: value, freeform }).then(
      () => {
        setBusy(false);
        setText('');
        setGates((all) => all.filter((g) => g.question_id !== gate.question_id));
        // Another gate (a parallel branch) may be waiting already.
        setTick((t) => t + 1);
        onAnswered();
      },
      (reason: unknown) => {
        setBusy(false);
        setError(toApiError(reason).message);
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
      <div className="gate-dock__choices">
        {gate.choices.map((choice) => (
          <button key={choice.key} type="button" className="button" disabled={busy} onClick={() => answer(choice.key, false)} title={`Goes to ${choice.target}`}>
            <kbd>{choice.key}</kbd> {choice.label}
          </button>
        ))}
      </div>
      {gate.allow_freeform ? (
        <form
          className="gate-dock__freeform"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() !== '') answer(text, true);
          }}
        >
          <textarea className="input" aria-label="Your answer" placeholder="Or write an answer…" value={text} onChange={(e) => setText(e.target.value)} rows={2} />
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
