import { describe, expect, it } from 'vitest';
import { RunProgressBuilder, edgeKey, progressOf } from './runProgress';
import { eventStream } from './runEvents.testdata';

describe('run progress', () => {
  it('follows stages through retries, routing and the end of the run', () => {
    const { events, add } = eventStream();
    add('run.started', undefined);
    add('stage.started', 'plan', { visit: 1, attempt: 1 });
    add('stage.completed', 'plan', { status: 'success' });
    add('edge.selected', undefined, { from: 'plan', to: 'test', label: null, reason: 'weight' });
    add('stage.started', 'test', { visit: 1, attempt: 1 });
    add('stage.retrying', 'test', { attempt: 1, reason: 'flaky' });
    let progress = progressOf(events);
    expect(progress.nodes.get('test')).toEqual({ status: 'retrying', visits: 1, retries: 1, outcome: null });
    expect(progress.current).toBe('test');
    add('stage.started', 'test', { visit: 1, attempt: 2 });
    add('stage.failed', 'test', { failure_class: 'deterministic', reason: 'exit 1' });
    add('edge.selected', undefined, { from: 'test', to: 'fix', label: 'failed', condition: 'outcome=fail', reason: 'condition' });
    add('stage.started', 'fix', { visit: 1 });
    add('stage.completed', 'fix', { status: 'success' });
    add('edge.selected', undefined, { from: 'fix', to: 'test', reason: 'weight' });
    add('stage.started', 'test', { visit: 2 });
    progress = progressOf(events);
    expect(progress.nodes.get('test')).toMatchObject({ status: 'running', visits: 2, retries: 1 });
    expect(progress.edges.get(edgeKey('test', 'fix'))).toMatchObject({ reason: 'condition', label: 'failed', count: 1 });
    add('run.cancelled', undefined, { reason: 'stopped' });
    progress = progressOf(events);
    expect(progress.runState).toBe('cancelled');
    expect(progress.nodes.get('test')?.status).toBe('interrupted');
    expect(progress.nodes.get('plan')?.status).toBe('succeeded');
    expect(progress.current).toBeNull();
  });

  it('shows a human gate waiting, and the state at an earlier moment', () => {
    const { events, add } = eventStream();
    add('stage.started', 'review', { visit: 1 });
    const asked = add('interview.started', 'review', { question: 'Ship?', choices: ['Yes'] });
    add('interview.answered', 'review', { selected: 'Y', label: 'Yes' });
    add('stage.completed', 'review', { status: 'success' });
    expect(progressOf(events, Date.parse(asked.ts)).nodes.get('review')?.status).toBe('waiting');
    expect(progressOf(events).nodes.get('review')?.status).toBe('succeeded');
  });

  it('ignores events it has already seen and snapshots do not change afterwards', () => {
    const { events, add } = eventStream();
    add('stage.started', 'a', { visit: 1 });
    const builder = new RunProgressBuilder();
    builder.apply(events[0]!);
    const before = builder.snapshot();
    builder.apply(events[0]!);
    add('stage.completed', 'a', { status: 'partial_success' });
    builder.apply(events[1]!);
    expect(before.nodes.get('a')?.status).toBe('running');
    expect(builder.snapshot().nodes.get('a')).toMatchObject({ status: 'succeeded', outcome: 'partial_success' });
    expect(builder.snapshot().seq).toBe(2);
  });

  it('folds ten thousand events', () => {
    const { events, add } = eventStream();
    for (let i = 0; i < 300; i += 1) {
      add('stage.started', `n${i}`, { visit: 1 });
      for (let j = 0; j < 31; j += 1) add('command.output', `n${i}`, { stream: 'stdout', text: 'line\n' });
      add('stage.completed', `n${i}`, { status: 'success' });
      if (i > 0) add('edge.selected', undefined, { from: `n${i - 1}`, to: `n${i}`, reason: 'weight' });
    }
    const progress = progressOf(events);
    expect(events.length).toBeGreaterThan(9_900);
    expect(progress.nodes.size).toBe(300);
    expect(progress.edges.size).toBe(299);
  });

  it('a rollback makes what the checkpoint had not completed pending again', () => {
    const { events, add } = eventStream();
    for (const [node, next] of [['start', 'unit'], ['unit', 'browser'], ['browser', 'exit']] as const) {
      add('stage.started', node, { visit: 1 });
      add('stage.completed', node, { status: 'success' });
      add('edge.selected', undefined, { from: node, to: next, reason: 'weight' });
    }
    add('stage.started', 'exit', { visit: 1 });
    add('stage.completed', 'exit', { status: 'success' });
    add('run.completed', undefined, {});
    add('run.rolled_back', undefined, { to: 'abc', timeline: 't2', next_node_id: 'browser', completed_nodes: ['start', 'unit'] });
    const progress = progressOf(events);
    expect(progress.nodes.get('unit')?.status).toBe('succeeded');
    expect(progress.nodes.get('browser')).toEqual({ status: 'pending', visits: 0, retries: 0, outcome: null });
    expect(progress.nodes.get('exit')?.status).toBe('pending');
    expect([...progress.edges.keys()]).toEqual([edgeKey('start', 'unit')]);
  });
});

