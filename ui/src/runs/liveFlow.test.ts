import { describe, expect, it } from 'vitest';
import { edge, node, workflow } from '../test-support/workflowBuilder';
import { workflowToFlow } from '../workflow-view/flow/workflowToFlow';
import { withRunProgress } from './liveFlow';
import { progressOf } from './runProgress';
import { eventStream } from './runEvents.testdata';

const flow = workflowToFlow(
  workflow({
    nodes: [node('test', { kind: 'command' }), node('fix'), node('done', { kind: 'exit' })],
    edges: [
      edge('test', 'fix', { label: 'failed', condition: 'outcome=fail' }),
      edge('test', 'done', { label: 'passed' }),
      edge('fix', 'test'),
      edge('test', 'fix', { label: 'again', occurrence: 1 }),
    ],
  }),
  [],
);

describe('the run on the canvas', () => {
  it('marks node statuses and the edges taken, with the latest one', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1 });
    add('stage.failed', 'test', { failure_class: 'deterministic' });
    add('edge.selected', undefined, { from: 'test', to: 'fix', label: 'failed', reason: 'condition' });
    add('stage.started', 'fix', { visit: 1 });
    add('stage.completed', 'fix', { status: 'success' });
    add('edge.selected', undefined, { from: 'fix', to: 'test', label: null, reason: 'weight' });
    add('stage.started', 'test', { visit: 2 });
    const shown = withRunProgress(flow, progressOf(events));
    const status = (id: string) => shown.nodes.find((n) => n.id === id)?.data;
    expect(status('test')).toMatchObject({ run: { status: 'running', visits: 2, retries: 0 } });
    expect(status('fix')).toMatchObject({ run: { status: 'succeeded', visits: 1 } });
    expect(status('done')).toMatchObject({ run: { status: 'pending', visits: 0 } });
    const marks = Object.fromEntries(shown.edges.map((e) => [e.id, e.data?.run]));
    // Of the two test->fix edges, the one whose label the event names.
    expect(marks['test->fix#0']).toEqual({ reason: 'condition', count: 1, latest: false });
    expect(marks['test->fix#1']).toBeUndefined();
    expect(marks['fix->test#0']).toEqual({ reason: 'weight', count: 1, latest: true });
    expect(marks['test->done#0']).toBeUndefined();
  });

  it('keeps the objects of elements whose mark did not change', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1 });
    const first = withRunProgress(flow, progressOf(events));
    add('command.output', 'test', { stream: 'stdout', text: 'x' });
    const second = withRunProgress(flow, progressOf(events), first);
    expect(second.nodes.every((n, i) => n === first.nodes[i])).toBe(true);
    expect(second).toBe(first);
    add('stage.completed', 'test', { status: 'success' });
    const third = withRunProgress(flow, progressOf(events), second);
    expect(third.nodes.find((n) => n.id === 'test')).not.toBe(second.nodes.find((n) => n.id === 'test'));
    expect(third.nodes.find((n) => n.id === 'fix')).toBe(second.nodes.find((n) => n.id === 'fix'));
  });
});
