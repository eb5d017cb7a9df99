import type { RunEvent, RunEventName, RunEventOf, RunEventProperties } from '../api/runEvent';

/**
 * Complete properties of every event, for tests to override: typed by the generated
 * `RunEvent`, so a renamed or added field fails to compile here.
 */
const DEFAULTS: { [N in RunEventName]: RunEventProperties<N> } = {
  'run.started': { workflow: 'W', goal: null, work_dir: '/work', run_dir: '/runs/R1', dry_run: false, resumed: false },
  'run.completed': { duration_ms: 1000, stages: 1 },
  'run.failed': { reason: 'it broke', duration_ms: 1000 },
  'run.cancelled': { reason: 'stopped', duration_ms: 1000 },
  'run.budget_exceeded': { cost_usd: 0.63, tokens: 1200, max_cost_usd: 0.5, max_tokens: null, next_node: 'review' },
  'run.rolled_back': { to: 'abc', timeline: 'heddle/run/R1-t2', next_node_id: null, completed_nodes: [] },
  'run.recovered': { checkpoint: 'abc', recovery_ref: 'refs/heddle/recovery/R1/1', recovery_sha: 'def', written: [], deleted: [] },
  'stage.started': { kind: 'command', visit: 1, attempt: 1 },
  'stage.completed': { status: 'success', duration_ms: 10, visit: 1, attempts: 1 },
  'stage.failed': { reason: 'exit 1', failure_class: 'deterministic', duration_ms: 10, visit: 1, attempts: 1 },
  'stage.retrying': { attempt: 1, max_attempts: 3, delay_ms: 100, reason: 'flaky' },
  'edge.selected': { from: 'a', to: 'b', label: null, condition: null, reason: 'weight' },
  'run.ended_without_edge': { status: 'success', message: 'no edge' },
  'goal_gate.checked': { satisfied: true, status: 'success', target: null },
  'checkpoint.saved': { next_node_id: null, git_commit_sha: null },
  'parallel.branch.started': { branch: 'x' },
  'parallel.branch.completed': { branch: 'x', status: 'success', last_node: null },
  'interview.started': { question: 'Ship?', choices: [], question_id: 'q1' },
  'interview.answered': { selected: 'Y', label: null, text: null },
  'interview.timed_out': { default_choice: null },
  'command.output': { stream: 'stdout', text: '' },
  'agent.text': { text: '', simulated: false },
  'agent.tool_call.started': { call_id: 'c1', tool: 'shell', arguments: {} },
  'agent.tool_call.completed': { call_id: 'c1', tool: 'shell', result: '', is_error: false },
  'agent.usage': { model: 'm', usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 } },
  'agent.note': { kind: 'retry', details: {} },
  'artifact.captured': { path: 'artifacts/a', kind: 'other', media_type: 'text/plain', size: 1 },
  'loop.restarted': { target: 'a', restarts: 1 },
  'manager.cycle': { cycle: 1, child_run_id: 'C1', child_status: 'running' },
  warning: { message: 'careful' },
};

/** The event named `name` with `properties` over complete defaults, as the stream delivers it. */
export function runEvent<N extends RunEventName>(
  name: N,
  envelope: { seq: number; ts: string; node?: string },
  properties: Partial<RunEventProperties<N>> = {},
): RunEventOf<N> {
  const made = {
    id: `E${String(envelope.seq).padStart(5, '0')}`,
    ts: envelope.ts,
    run_id: 'R1',
    seq: envelope.seq,
    event: name,
    properties: { ...DEFAULTS[name], ...properties },
    ...(envelope.node === undefined ? {} : { node_id: envelope.node }),
  };
  // The spread of a generic mapped type loses its link to `N`; the object is built from them.
  return made as unknown as RunEventOf<N>;
}

/** Builds run events with consecutive `seq` and timestamps one second apart, for tests. */
export function eventStream(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
  const events: RunEvent[] = [];
  const add = <N extends RunEventName>(
    name: N,
    node: string | undefined,
    properties: Partial<RunEventProperties<N>> = {},
  ): RunEventOf<N> => {
    const seq = events.length + 1;
    const ts = new Date(start + seq * 1000).toISOString();
    const made = runEvent(name, { seq, ts, ...(node === undefined ? {} : { node }) }, properties);
    events.push(made);
    return made;
  };
  return { events, add };
}
