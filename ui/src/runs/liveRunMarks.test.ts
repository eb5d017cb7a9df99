import { describe, expect, it } from 'vitest';
import type { Workflow } from '../generated/Workflow';
import { edge, node, workflow } from '../test-support/workflowBuilder';
import type { WorkflowFlow } from '../workflow-view/flow/flowTypes';
import { workflowToFlow } from '../workflow-view/flow/workflowToFlow';
import { LiveRunMarks } from './liveRunMarks';
import { progressOf, type NodeProgress } from './runProgress';
import { eventStream } from './runEvents.testdata';

/**
 * `wf`'s flow, checked to number its edges between each pair of nodes 0 to n-1 as a parsed
 * workflow does (`edge` makes occurrence 0 unless told), which LiveRunMarks relies on.
 */
function parsedLike(wf: Workflow): WorkflowFlow {
  const occurrences = new Map<string, number[]>();
  for (const e of wf.edges) occurrences.set(`${e.from} ${e.to}`, [...(occurrences.get(`${e.from} ${e.to}`) ?? []), e.occurrence]);
  for (const [pair, list] of occurrences) expect([...list].sort((a, b) => a - b), `occurrences of ${pair}`).toEqual(list.map((_, i) => i));
  return workflowToFlow(wf, []);
}

const flow = parsedLike(
  workflow({
    nodes: [node('test', { kind: 'command' }), node('fix'), node('done', { kind: 'exit' })],
    edges: [
      edge('test', 'fix', { label: 'failed', condition: 'outcome=fail' }),
      edge('test', 'done', { label: 'passed' }),
      edge('fix', 'test'),
      edge('test', 'fix', { label: 'again', occurrence: 1 }),
    ],
  }),
);

/** The mark of `flow`'s edge `id`, asked as the canvas asks: with the workflow edge it draws. */
function edgeMark(marks: LiveRunMarks, on: WorkflowFlow, id: string) {
  return marks.edge(id, on.edges.find((e) => e.id === id)?.data?.edge);
}

describe('the run on the canvas', () => {
  it('is tested on edges numbered as parsed ones: a second edge between a pair without its occurrence is caught', () => {
    const unnumbered = workflow({ nodes: [node('a'), node('b')], edges: [edge('a', 'b'), edge('a', 'b', { label: 'two' })] });
    expect(() => parsedLike(unnumbered)).toThrow(/occurrences of a b/);
  });

  it('marks node statuses and the edges taken, with the latest one', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1 });
    add('stage.failed', 'test', { failure_class: 'deterministic' });
    add('edge.selected', undefined, { from: 'test', to: 'fix', label: 'failed', reason: 'condition' });
    add('stage.started', 'fix', { visit: 1 });
    add('stage.completed', 'fix', { status: 'success' });
    add('edge.selected', undefined, { from: 'fix', to: 'test', label: null, reason: 'weight' });
    add('stage.started', 'test', { visit: 2 });
    const marks = new LiveRunMarks(flow);
    marks.show(progressOf(events));
    expect(marks.node('test')).toEqual({ status: 'running', visits: 2, retries: 0 });
    expect(marks.node('fix')).toMatchObject({ status: 'succeeded', visits: 1 });
    expect(marks.node('done')).toMatchObject({ status: 'pending', visits: 0 });
    // Of the two test->fix edges, the one whose label the event names.
    expect(edgeMark(marks, flow, 'test->fix#0')).toEqual({ reason: 'condition', count: 1, latest: false });
    expect(edgeMark(marks, flow, 'test->fix#1')).toBeUndefined();
    expect(edgeMark(marks, flow, 'fix->test#0')).toEqual({ reason: 'weight', count: 1, latest: true });
    expect(edgeMark(marks, flow, 'test->done#0')).toBeUndefined();
  });

  it('shows nodes the events have not reached as the timeline has them', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 3 });
    const timeline = new Map<string, NodeProgress>([
      ['test', { status: 'failed', visits: 2, retries: 0, outcome: 'fail' }],
      ['fix', { status: 'succeeded', visits: 2, retries: 1, outcome: 'success' }],
    ]);
    const marks = new LiveRunMarks(flow);
    marks.show(progressOf(events), timeline);
    // The events are newer where they have reached.
    expect(marks.node('test')).toEqual({ status: 'running', visits: 3, retries: 0 });
    expect(marks.node('fix')).toEqual({ status: 'succeeded', visits: 2, retries: 1 });
    expect(marks.node('done')).toEqual({ status: 'pending', visits: 0, retries: 0 });
  });

  it('keeps the objects of marks that did not change, and tells subscribers of each new progress', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1 });
    const marks = new LiveRunMarks(flow);
    let told = 0;
    const unsubscribe = marks.subscribe(() => (told += 1));
    expect(marks.show(progressOf(events))).toBe(true);
    marks.notify();
    const first = { test: marks.node('test'), fix: marks.node('fix') };
    add('command.output', 'test', { stream: 'stdout', text: 'x' });
    const again = progressOf(events);
    expect(marks.show(again)).toBe(true);
    expect(marks.show(again)).toBe(false);
    expect(marks.node('test')).toBe(first.test);
    add('stage.completed', 'test', { status: 'success' });
    marks.show(progressOf(events));
    marks.notify();
    expect(marks.node('test')).not.toBe(first.test);
    expect(marks.node('test')?.status).toBe('succeeded');
    expect(marks.node('fix')).toBe(first.fix);
    expect(told).toBe(2);
    unsubscribe();
    marks.notify();
    expect(told).toBe(2);
  });

  it('tells apart three edges with the same endpoints by label, and finds nothing for an unknown edge', () => {
    const three = parsedLike(
      workflow({
        nodes: [node('a'), node('b')],
        edges: [edge('a', 'b', { label: 'one' }), edge('a', 'b', { label: 'two', occurrence: 1 }), edge('a', 'b', { label: 'three', occurrence: 2 }), edge('b', 'a')],
      }),
    );
    const { events, add } = eventStream();
    add('edge.selected', undefined, { from: 'a', to: 'b', label: 'three', reason: 'label' });
    add('edge.selected', undefined, { from: 'b', to: 'a', label: null, reason: 'weight' });
    const marks = new LiveRunMarks(three);
    marks.show(progressOf(events));
    expect(marks.edge('nowhere', undefined)).toBeUndefined();
    expect([edgeMark(marks, three, 'a->b#0'), edgeMark(marks, three, 'a->b#1')]).toEqual([undefined, undefined]);
    expect(edgeMark(marks, three, 'a->b#2')).toMatchObject({ reason: 'label', count: 1 });
    expect(edgeMark(marks, three, 'b->a#0')).toMatchObject({ reason: 'weight', latest: true });
  });
});
