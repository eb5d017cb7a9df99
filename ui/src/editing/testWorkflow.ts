/**
 * Test support for the editing modules: attribute entries as the Rust model reports them
 * (as-written key, canonical key, origin) and a workflow modelled on
 * `examples/review-gate.dot`, and unwrapping of `Checked` results. Builds on
 * `test-support/workflowBuilder`.
 */
import type { AttrEntry } from '../generated/AttrEntry';
import type { AttrOrigin } from '../generated/AttrOrigin';
import type { Workflow } from '../generated/Workflow';
import { edge, node, span, workflow } from '../test-support/workflowBuilder';
import type { Checked, Refusal } from './editRefusal';

/** A string attribute; `canonical` differs from `key` for aliases (`llm_model` → `model`). */
export function attr(key: string, raw: string, canonical = key, origin: AttrOrigin = 'explicit'): AttrEntry {
  return { key, canonical, value: { type: 'string', value: raw }, raw, origin, span: span() };
}

/** An attribute a `node [..]` or `edge [..]` default statement gives. */
export function defaultAttr(key: string, raw: string): AttrEntry {
  return attr(key, raw, key, 'default');
}

/** A labelled edge as the model reports it: `label` set and an explicit `label` attribute. */
function choice(from: string, to: string, label: string) {
  return edge(from, to, { label, attrs: [attr('label', label)] });
}

/**
 * `examples/review-gate.dot`: start -> draft (prompt) -> review (human gate) with choices
 * publish / draft / exit, and publish (command) -> exit.
 */
export function reviewGate(): Workflow {
  return workflow({
    name: 'ReviewGate',
    goal: 'Draft release notes and get a person to approve them',
    attrs: [attr('goal', 'Draft release notes and get a person to approve them')],
    nodes: [
      node('start', { kind: 'start', shape: 'Mdiamond', attrs: [attr('shape', 'Mdiamond')] }),
      node('exit', { kind: 'exit', shape: 'Msquare', attrs: [attr('shape', 'Msquare')] }),
      node('draft', {
        kind: 'prompt',
        shape: 'tab',
        label: 'Draft notes',
        attrs: [
          attr('shape', 'tab'),
          attr('label', 'Draft notes'),
          attr('prompt', 'Summarise the commits since the last tag as release notes for users.'),
        ],
      }),
      node('review', {
        kind: 'human',
        shape: 'hexagon',
        label: 'Approve the notes?',
        attrs: [
          attr('shape', 'hexagon'),
          attr('label', 'Approve the notes?'),
          attr('human.default_choice', 'approve'),
          attr('timeout', '2h'),
        ],
      }),
      node('publish', {
        kind: 'command',
        shape: 'parallelogram',
        label: 'Publish',
        attrs: [
          attr('shape', 'parallelogram'),
          attr('label', 'Publish'),
          attr('script', 'cp NOTES.md dist/'),
        ],
      }),
    ],
    edges: [
      edge('start', 'draft'),
      edge('draft', 'review'),
      choice('review', 'publish', '[A] Approve'),
      choice('review', 'draft', '[R] Revise'),
      choice('review', 'exit', '[S] Skip release'),
      edge('publish', 'exit'),
    ],
  });
}

/** The value of an accepted result; fails the test with the refusal otherwise. */
export function accepted<T>(checked: Checked<T>): T {
  if (!checked.ok) throw new Error(`refused (${checked.refusal.code}): ${checked.refusal.message}`);
  return checked.value;
}

/** The refusal of a refused result; fails the test when it was accepted. */
export function refusal<T>(checked: Checked<T>): Refusal {
  if (checked.ok) throw new Error(`accepted: ${JSON.stringify(checked.value)}`);
  return checked.refusal;
}
