import type { StartRunRequest } from '../generated/StartRunRequest';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import type { Budget } from './runBudget';

/** The Start-run form as read: what `start_run` and `enqueue_run` are both asked. */
export interface RunForm {
  workflowPath: string;
  /** The goal as typed. */
  goal: string;
  /** The workflow's own goal (the field's first value). */
  defaultGoal: string | null;
  labels: Record<string, string>;
  inputs: Record<string, string>;
  dryRun: boolean;
  /** Where stages run (see `workDirFor`); null: the workflow's folder. */
  workDir: string | null;
  budget: Budget;
}

/**
 * The request for the run: the form, the workflow's goal left to the workflow when the
 * field still holds it (or nothing), and the person's consent when the workflow on disk now
 * (`trust`, read just before) is not trusted yet: `consentedDigest`, the content they agreed
 * to run. Checkpoints are the default's (a worker uses worktree checkpoints anyway).
 */
export function startRunRequest(form: RunForm, trust: WorkflowTrust, consentedDigest: string | null): StartRunRequest {
  const { goal, defaultGoal } = form;
  return {
    workflow_path: form.workflowPath,
    goal: goal.trim() === '' || goal === defaultGoal ? null : goal,
    labels: form.labels,
    inputs: form.inputs,
    dry_run: form.dryRun,
    work_dir: form.workDir,
    checkpoints: null,
    trust: !trust.trusted,
    trust_digest: trust.trusted ? null : consentedDigest,
    ...form.budget,
  };
}
