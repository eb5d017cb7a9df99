import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import { useEscapeKey } from '../app/useEscapeKey';
import type { QueueEntry } from '../generated/QueueEntry';
import type { WorkflowInput } from '../generated/WorkflowInput';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import { BudgetInputs } from './BudgetInputs';
import { parseLabels } from './labels';
import { budgetFields, parseBudget, type Budget } from './runBudget';
import { initialInputValues, inputsToSend } from './runInputs';
import { askToNotify } from './runNotice';
import { notSavedMessage, submitLabel, unsavedNote, workDirFor, type RunPlace } from './runPlace';
import { RunPlaceChoice } from './RunPlaceChoice';
import { startRunRequest } from './startRunRequest';
import { TrustSummary } from './TrustSummary';
import { needsConsent } from './trustConsent';
import { useAliveWorkers } from './useAliveWorkers';
import './start-run.css';

/**
 * Starts a run of the open workflow: its goal (the graph's by default), a value for each
 * `{{ inputs.NAME }}` it uses (the run config's by default), labels to find it by, its budget
 * (the run config's, else the graph's, `max_cost_usd` / `max_tokens` by default), and whether LLM stages are simulated
 * (dry run, no API key needed). A workflow not
 * trusted on this machine yet shows what it will do, and starts only once the person ticks
 * "Trust this workflow and run" for exactly that content. While a worker of the run queue is
 * alive, the run can be queued for a worker instead (with the same consent); it runs in a
 * fresh clone of the team's remote, so the work folder does not apply.
 */
export function StartRunDialog({
  workflowPath,
  defaultGoal,
  inputs,
  defaultBudget,
  unsaved,
  onSave,
  onStarted,
  onQueued,
  onClose,
}: {
  workflowPath: string;
  defaultGoal: string | null;
  /** The inputs the workflow's templates use, with the run config's values. */
  inputs: readonly WorkflowInput[];
  /** The limits a run gets when the form gives none (the run config's, else the graph's): the budget fields' first values. */
  defaultBudget: Budget;
  /** The editor holds changes the file on disk does not have yet. */
  unsaved: boolean;
  onSave: () => Promise<boolean>;
  onStarted: (runId: string) => void;
  onQueued: (entry: QueueEntry) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const [goal, setGoal] = useState(defaultGoal ?? '');
  const [inputValues, setInputValues] = useState(() => initialInputValues(inputs));
  const [labels, setLabels] = useState('');
  const [budget, setBudget] = useState(() => budgetFields(defaultBudget));
  const [dryRun, setDryRun] = useState(false);
  const [workDir, setWorkDir] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [trust, setTrust] = useState<WorkflowTrust | null>(null);
  const [consented, setConsented] = useState(false);
  const alive = useAliveWorkers();
  const [chosenPlace, setPlace] = useState<RunPlace>('here');
  // Offered only while a worker is alive (the queue is read once, as the dialog opens).
  const place: RunPlace = alive > 0 ? chosenPlace : 'here';
  useEscapeKey(onClose);
  const parsed = parseLabels(labels);
  const limits = parseBudget(budget);
  const given = inputsToSend(inputs, inputValues);
  const chosenWorkDir = workDirFor(place, workDir);
  const consentedDigest = consented && trust !== null ? trust.digest : null;
  const blocked = trust !== null && needsConsent(trust, consentedDigest);

  useEffect(() => {
    let live = true;
    api
      .workflowTrust({ workflow_path: workflowPath, work_dir: chosenWorkDir })
      .then((found) => {
        if (!live) return;
        setTrust((shown) => (shown !== null && shown.digest === found.digest ? shown : found));
      })
      // Unreadable now: starting says why.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, workflowPath, chosenWorkDir]);

  /** Shows what the workflow on disk now will do, asking for consent again. */
  const review = (fresh: WorkflowTrust, message: string) => {
    setTrust(fresh);
    setConsented(false);
    setError(message);
    setBusy(false);
  };

  const start = async () => {
    if (!parsed.ok || !limits.ok || given.missing.length > 0) return;
    if (place === 'here') askToNotify();
    setBusy(true);
    setError(null);
    try {
      if (unsaved && !(await onSave())) {
        setError(notSavedMessage(place));
        setBusy(false);
        return;
      }
      // What is on disk now (saving may have changed it) is what the consent must cover.
      const fresh = await api.workflowTrust({ workflow_path: workflowPath, work_dir: chosenWorkDir });
      if (needsConsent(fresh, consentedDigest)) {
        review(
          fresh,
          consentedDigest === null
            ? 'Review what this workflow will do, then tick “Trust this workflow and run”.'
            : 'The workflow changed since you reviewed it; review it again.',
        );
        return;
      }
      const request = startRunRequest(
        {
          workflowPath,
          goal,
          defaultGoal,
          labels: parsed.labels,
          inputs: given.values,
          dryRun,
          workDir: chosenWorkDir,
          budget: limits.budget,
        },
        fresh,
        consentedDigest,
      );
      if (place === 'worker') onQueued(await api.enqueueRun(request));
      else onStarted((await api.startRun(request)).run_id);
    } catch (reason) {
      const failure = toApiError(reason);
      setError(failure.message);
      setBusy(false);
    }
  };

  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <form
        className="dialog start-run"
        role="dialog"
        aria-modal="true"
        aria-label="Start a run"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <h2>Run this workflow</h2>
        <p className="muted start-run__path">{workflowPath}</p>
        <div className="start-run__goal">
          <label htmlFor="run-goal">Goal</label>
          <textarea
            id="run-goal"
            className="input"
            rows={3}
            value={goal}
            onChange={(e) => setGoal(e.target.value)}
            placeholder="What this run should achieve (the workflow's goal if left as it is)"
          />
        </div>
        {inputs.length > 0 ? (
          <fieldset className="start-run__inputs" data-testid="run-inputs">
            <legend>Inputs</legend>
            <div className="start-run__grid">
              {inputs.map(({ name }) => (
                <div key={name} className="start-run__row">
                  <label htmlFor={`run-input-${name}`}>
                    <code>{name}</code>
                  </label>
                  <input
                    id={`run-input-${name}`}
                    className="input"
                    value={inputValues[name] ?? ''}
                    onChange={(e) => {
                      const value = e.target.value;
                      setInputValues((current) => ({ ...current, [name]: value }));
                    }}
                    placeholder={`{{ inputs.${name} }}`}
                    aria-invalid={(inputValues[name] ?? '') === ''}
                    spellCheck={false}
                  />
                </div>
              ))}
            </div>
            {given.missing.length > 0 ? (
              <p className="start-run__hint is-error">
                {given.missing.length === 1 ? 'Input' : 'Inputs'} {given.missing.join(', ')} {given.missing.length === 1 ? 'needs' : 'need'} a
                value.
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <div className="start-run__grid">
          {alive > 0 ? <RunPlaceChoice place={place} alive={alive} onChoose={setPlace} /> : null}
          <div className="start-run__row">
            <label htmlFor="run-labels">Labels</label>
            <input
              id="run-labels"
              className="input"
              value={labels}
              onChange={(e) => setLabels(e.target.value)}
              placeholder="team=web, ticket=123"
              aria-invalid={!parsed.ok}
              aria-describedby={!parsed.ok ? 'run-labels-error' : undefined}
            />
            {!parsed.ok ? (
              <p id="run-labels-error" className="start-run__hint is-error">
                {parsed.error}
              </p>
            ) : null}
          </div>
          <div className="start-run__row">
            <label htmlFor="run-work-dir">Work folder</label>
            <input
              id="run-work-dir"
              className="input"
              value={workDir}
              onChange={(e) => setWorkDir(e.target.value)}
              placeholder="The workflow's folder"
              spellCheck={false}
              disabled={place === 'worker'}
              aria-describedby={place === 'worker' ? 'run-work-dir-note' : undefined}
            />
            {place === 'worker' ? (
              <p id="run-work-dir-note" className="start-run__hint muted">
                A worker runs it in a fresh clone of the team’s remote.
              </p>
            ) : null}
          </div>
          <BudgetInputs idPrefix="run" fields={budget} parsed={limits} fallback={defaultBudget} onChange={setBudget} />
          <div className="start-run__row">
            <span className="start-run__label" id="run-mode">
              Mode
            </span>
            <label className="start-run__check">
              <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} aria-describedby="run-mode" /> Dry run: simulate
              LLM stages (no API key needed; commands still run)
            </label>
          </div>
        </div>
        {trust !== null && !trust.trusted ? <TrustSummary trust={trust} consented={consented} onConsent={setConsented} /> : null}
        {unsaved ? <p className="banner is-warning">{unsavedNote(place)}</p> : null}
        {error !== null ? (
          <p className="banner is-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button is-primary" disabled={busy || !parsed.ok || !limits.ok || blocked || given.missing.length > 0}>
            {submitLabel(place, { busy, unsaved })}
          </button>
        </div>
      </form>
    </div>
  );
}
