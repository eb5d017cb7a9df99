import { describe, expect, it } from 'vitest';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import { startRunRequest, type RunForm } from './startRunRequest';

const form = (over: Partial<RunForm> = {}): RunForm => ({
  workflowPath: '/repo/flows/main.dot',
  goal: 'Ship it',
  defaultGoal: 'Ship it',
  labels: { team: 'web' },
  inputs: { name: 'world' },
  dryRun: true,
  workDir: null,
  budget: { max_cost_usd: 2.5, max_tokens: null },
  ...over,
});

const trust = (trusted: boolean): WorkflowTrust => ({
  workflow_path: '/repo/flows/main.dot',
  folder: '/repo/flows',
  digest: 'aa',
  work_dir: '/repo/flows',
  trusted,
  warning: null,
  items: [],
  effects: { commands: [], shell_agents: [], external_agents: [], outside_files: [], child_workflows: [], read_files: [] },
});

describe('the request for a run', () => {
  it('sends the form, leaving the goal to the workflow while the field holds its own', () => {
    expect(startRunRequest(form(), trust(true), null)).toEqual({
      workflow_path: '/repo/flows/main.dot',
      goal: null,
      labels: { team: 'web' },
      inputs: { name: 'world' },
      dry_run: true,
      work_dir: null,
      checkpoints: null,
      trust: false,
      trust_digest: null,
      max_cost_usd: 2.5,
      max_tokens: null,
    });
  });

  it('sends a goal typed over the workflow’s, but not an empty one', () => {
    expect(startRunRequest(form({ goal: 'Fix the build' }), trust(true), null).goal).toBe('Fix the build');
    expect(startRunRequest(form({ goal: '  ' }), trust(true), null).goal).toBeNull();
  });

  it('sends the work folder it is given', () => {
    expect(startRunRequest(form({ workDir: '/srv/work' }), trust(true), null).work_dir).toBe('/srv/work');
  });

  it('trusts an untrusted workflow for the content the person agreed to, and only then', () => {
    const consented = startRunRequest(form(), trust(false), 'aa');
    expect([consented.trust, consented.trust_digest]).toEqual([true, 'aa']);
    const trusted = startRunRequest(form(), trust(true), 'aa');
    expect([trusted.trust, trusted.trust_digest]).toEqual([false, null]);
  });
});
