import { describe, expect, it } from 'vitest';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import { needsConsent } from './trustConsent';

const trust = (over: Partial<WorkflowTrust> = {}): WorkflowTrust => ({
  workflow_path: '/repo/flows/main.dot',
  folder: '/repo/flows',
  digest: 'aa',
  work_dir: '/repo',
  trusted: false,
  warning: null,
  items: [{ kind: 'command', title: 'Runs the shell script of “build”', detail: 'make' }],
  effects: {
    commands: [{ node_id: 'build', workflow: '/repo/flows/main.dot', language: 'shell', script: 'make' }],
    shell_agents: [{ node_id: 'fix', workflow: '/repo/flows/child.dot' }],
    external_agents: [{ node_id: 'ask', workflow: '/repo/flows/main.dot', backend: 'cli', command: 'claude -p' }],
    outside_files: [
      {
        node_id: 'plan',
        workflow: '/repo/flows/main.dot',
        attribute: 'prompt',
        reference: '../../home/.aws/credentials',
        resolved: '/home/.aws/credentials',
        through_symlink: false,
      },
    ],
    child_workflows: [{ node_id: 'boss', workflow: '/repo/flows/main.dot', path: '/repo/flows/child.dot', problem: null }],
    read_files: [],
  },
  ...over,
});

describe('consent to run an untrusted workflow', () => {
  it('needs consent for untrusted content the person has not agreed to', () => {
    expect(needsConsent(trust(), null)).toBe(true);
    expect(needsConsent(trust(), 'aa')).toBe(false);
    expect(needsConsent(trust({ digest: 'bb' }), 'aa')).toBe(true);
    expect(needsConsent(trust({ trusted: true }), null)).toBe(false);
  });
});
