// Synthetic run folders in the real on-disk formats (manifest.json, graph.dot,
// progress.jsonl, conclusion.json), for measuring the runs screens on large runs without
// executing one.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A valid ULID (Crockford base32, 26 characters) made from a tag and a number. */
export function syntheticUlid(tag, n) {
  const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let tail = '';
  let rest = n;
  for (let i = 0; i < 6; i++) {
    tail = digits[rest % 32] + tail;
    rest = Math.floor(rest / 32);
  }
  return `01M83${tag}`.padEnd(20, '0') + tail;
}

/** A workflow of `stages` command nodes in a chain, between start and exit. */
export function chainDot(name, stages) {
  const lines = [`digraph ${name} {`, '  start [shape=Mdiamond];', '  exit [shape=Msquare];'];
  for (let i = 0; i < stages; i++) lines.push(`  n${i} [shape=parallelogram, script="echo ${i}"];`);
  const chain = ['start', ...Array.from({ length: stages }, (_, i) => `n${i}`), 'exit'];
  for (let i = 1; i < chain.length; i++) lines.push(`  ${chain[i - 1]} -> ${chain[i]};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Writes events to a run's progress.jsonl with consecutive seq and ids. */
export class EventWriter {
  constructor(folder, runId, startMs) {
    this.file = join(folder, 'progress.jsonl');
    this.runId = runId;
    this.clock = startMs;
    this.seq = 0;
  }

  /** The lines of `count` more events for stage `node`: started, output chunks, completed, routing. */
  stageLines(node, next, outputs) {
    return this.visitLines({ node, next, outputs });
  }

  /**
   * The lines of one stage visit: started, `outputs` output chunks, completed with `status`,
   * the edge to `next` (when there is one), and a saved checkpoint when `checkpoint` is true.
   */
  visitLines({ node, next, outputs, visit = 1, status = 'success', checkpoint = false }) {
    const lines = [];
    const event = (name, properties, nodeId = node) => {
      this.seq += 1;
      this.clock += 3;
      const envelope = {
        id: syntheticUlid('EVT', this.seq),
        ts: new Date(this.clock).toISOString(),
        run_id: this.runId,
        seq: this.seq,
        ...(nodeId === null ? {} : { node_id: nodeId }),
        event: name,
        properties,
      };
      lines.push(JSON.stringify(envelope));
    };
    const stageDir = visit === 1 ? `nodes/${node}` : `nodes/${node}-${visit}`;
    event('stage.started', { kind: 'command', visit, attempt: 1, stage_dir: stageDir });
    for (let i = 0; i < outputs; i++) event('command.output', { stream: 'stdout', text: `line ${i} of ${node}\n` });
    event('stage.completed', { status, duration_ms: 3 * (outputs + 1), visit, attempts: 1, notes: '', stage_dir: stageDir });
    if (next !== null) event('edge.selected', { from: node, to: next, label: null, condition: null, reason: 'weight' }, null);
    if (checkpoint) event('checkpoint.saved', { next_node_id: next, git_commit_sha: null });
    return lines;
  }

  runStarted(workflow) {
    this.seq += 1;
    return JSON.stringify({
      id: syntheticUlid('EVT', this.seq),
      ts: new Date(this.clock).toISOString(),
      run_id: this.runId,
      seq: this.seq,
      event: 'run.started',
      properties: { workflow, goal: null, work_dir: '/tmp', run_dir: '', dry_run: true, resumed: false },
    });
  }

  append(lines) {
    appendFileSync(this.file, lines.map((l) => `${l}\n`).join(''));
  }
}

/**
 * A test → fix loop: `test` fails and sends the run to `fix`, which sends it back, until
 * `test` succeeds and the run exits.
 */
export function loopDot(name) {
  return `digraph ${name} {
  start [shape=Mdiamond];
  exit [shape=Msquare];
  test [shape=parallelogram, script="make test"];
  fix [shape=parallelogram, script="make fix"];
  start -> test;
  test -> fix [label="failed", condition="outcome=fail"];
  test -> exit [label="passed", condition="outcome=success"];
  fix -> test;
}
`;
}

/**
 * Creates `runs/{date}-{id}/` under `home` with its manifest and workflow (a chain of
 * `stages` nodes, or the `dot` given); returns the folder.
 */
export function createRunFolder(home, runId, name, stages, startMs, dot = chainDot(name, stages)) {
  const folder = join(home, 'runs', `20261123-${runId}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'graph.dot'), dot);
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify(
      {
        run_id: runId,
        workflow_name: name,
        workflow_path: join(folder, 'graph.dot'),
        goal: null,
        start_time: new Date(startMs).toISOString(),
        node_count: stages + 2,
        edge_count: stages + 1,
        base_sha: null,
        run_branch: null,
        labels: { synthetic: 'yes' },
        checkpoint_mode: 'none',
        work_dir: '/tmp',
        dry_run: true,
        heddle_version: '0.1.0',
      },
      null,
      2,
    ),
  );
  writeFileSync(join(folder, 'progress.jsonl'), '');
  return folder;
}

/** Marks a run concluded. */
export function concludeRun(folder, runId, stages, endMs, durationMs) {
  writeFileSync(
    join(folder, 'conclusion.json'),
    JSON.stringify({
      run_id: runId,
      status: 'success',
      duration_ms: durationMs,
      failure_reason: null,
      final_git_commit_sha: null,
      completed_at: new Date(endMs).toISOString(),
      stages,
      artifact_count: 0,
    }),
  );
}

/**
 * Writes a finished run of workflow `dot` (`steps` nodes besides start and exit, as its
 * manifest counts them) visiting `visits` (each `{ node, visit, status }`, in order) between
 * start and exit, with one output line and a checkpoint per stage. Returns its id, event
 * count and every stage (node, visit and start in ms since the run's start), in order.
 */
export function finishedRun(home, tag, dot, visits, steps = 2) {
  const id = syntheticUlid(tag, 1);
  const start = Date.UTC(2026, 10, 23, 1, 0, 0);
  const folder = createRunFolder(home, id, tag, steps, start, dot);
  const writer = new EventWriter(folder, id, start);
  const all = [{ node: 'start', visit: 1, status: 'success' }, ...visits, { node: 'exit', visit: 1, status: 'success' }];
  const stages = [];
  const lines = [writer.runStarted(tag)];
  all.forEach((stage, i) => {
    stages.push({ node: stage.node, visit: stage.visit, at: writer.clock + 3 - start });
    const next = all[i + 1]?.node ?? null;
    lines.push(...writer.visitLines({ ...stage, next, outputs: 1, checkpoint: true }));
  });
  writer.append(lines);
  concludeRun(folder, id, all.length, writer.clock, writer.clock - start);
  return { id, events: writer.seq, stages };
}

/** test, fix, test, fix, …, test: `stages` visits (an odd count), every test failing but the last. */
export function loopVisits(stages) {
  if (stages % 2 !== 1) throw new Error('a loop that ends with a passing test has an odd number of stages');
  return Array.from({ length: stages }, (_, i) => {
    const node = i % 2 === 0 ? 'test' : 'fix';
    const status = node === 'test' && i < stages - 1 ? 'fail' : 'success';
    return { node, visit: Math.floor(i / 2) + 1, status };
  });
}
