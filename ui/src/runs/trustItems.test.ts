import { describe, expect, it } from 'vitest';
import type { WorkflowTrust } from '../generated/WorkflowTrust';
import { needsConsent, scriptPreview, trustItems } from './trustItems';

const trust = (over: Partial<WorkflowTrust> = {}): WorkflowTrust => ({
  workflow_path: '/repo/flows/main.dot',
  folder: '/repo/flows',
  digest: 'aa',
  work_dir: '/repo',
  trusted: false,
  warning: null,
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

describe('the trust summary', () => {
  it('lists every kind of effect, naming the child file an item comes from', () => {
    const items = trustItems(trust());
    expect(items.map((i) => i.kind)).toEqual(['command', 'shell', 'external', 'outside', 'child']);
    expect(items[0]).toEqual({ kind: 'command', title: 'Runs the shell script of “build”', detail: 'make' });
    expect(items[1]?.title).toBe('Gives agent “fix” (in /repo/flows/child.dot) a shell in /repo');
    expect(items[2]?.detail).toBe('claude -p');
    expect(items[3]?.title).toBe('Reads a file outside /repo/flows for “plan” prompt');
    expect(items[3]?.detail).toBe('/home/.aws/credentials');
  });

  it('shows the first lines of a long script', () => {
    const script = Array.from({ length: 9 }, (_, i) => `step ${i}`).join('\n');
    expect(scriptPreview(script)).toBe('step 0\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n… (3 more lines)');
    expect(scriptPreview('one\ntwo')).toBe('one\ntwo');
  });

  it('needs consent for untrusted content the person has not agreed to', () => {
    expect(needsConsent(trust(), null)).toBe(true);
    expect(needsConsent(trust(), 'aa')).toBe(false);
    expect(needsConsent(trust({ digest: 'bb' }), 'aa')).toBe(true);
    expect(needsConsent(trust({ trusted: true }), null)).toBe(false);
  });
});
