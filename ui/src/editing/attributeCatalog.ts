/**
 * The workflow dialect's attributes: where each applies, its value type and its aliases.
 * This table mirrors `crates/heddle-workflow/src/catalog/dialect.rs` (same order, names,
 * scopes, types and enum values); change both together. Graphviz's drawing attributes are
 * left out: the inspector shows them as plain text.
 */

/** Where an attribute is written. */
export type AttrScope = 'graph' | 'subgraph' | 'node' | 'edge';

/** The type an attribute's value must have (the catalog's `ValueType`). */
export type AttrValueType =
  | { type: 'string' }
  /** A whole number; `min` null means no lower bound. */
  | { type: 'integer'; min: number | null }
  | { type: 'boolean' }
  | { type: 'duration' }
  /** One of the listed words, compared without case, stored in the listed spelling. */
  | { type: 'enum'; values: readonly string[] }
  /** Text, or `@path` naming a file holding it (`prompt`). */
  | { type: 'text_or_file' }
  /** `routing`, or `@path` naming a JSON Schema. */
  | { type: 'schema' }
  /** The id of a node of the same workflow. */
  | { type: 'node_id' }
  | { type: 'condition' }
  | { type: 'stylesheet' };

/** One catalog entry. */
export type AttrSpec = {
  /** Heddle's name; a name ending in `.*` covers every key with that prefix. */
  name: string;
  /** Other accepted names (Attractor/Fabro spellings). */
  aliases: readonly string[];
  /** Letters `G` graph, `S` subgraph, `N` node, `E` edge. */
  scopes: string;
  valueType: AttrValueType;
  summary: string;
};

const FIDELITY = ['full', 'compact', 'summary:high', 'summary:medium', 'summary:low', 'truncate'];
const RETRY_POLICY = ['none', 'standard', 'aggressive', 'linear', 'patient'];
const REASONING_EFFORT = ['low', 'medium', 'high'];
const LANGUAGE = ['shell', 'python'];
const JOIN_POLICY = ['wait_all', 'first_success'];
const RANKDIR = ['TB', 'LR', 'BT', 'RL'];

const TEXT: AttrValueType = { type: 'string' };
const COUNT: AttrValueType = { type: 'integer', min: 0 };
const POSITIVE: AttrValueType = { type: 'integer', min: 1 };
const BOOL: AttrValueType = { type: 'boolean' };
const DURATION: AttrValueType = { type: 'duration' };
const oneOf = (values: readonly string[]): AttrValueType => ({ type: 'enum', values });

function d(
  name: string,
  scopes: string,
  valueType: AttrValueType,
  summary: string,
  aliases: string[] = [],
): AttrSpec {
  return { name, aliases, scopes, valueType, summary };
}

/** The dialect's attributes, in the Rust catalog's order. */
export const DIALECT_ATTRIBUTES: readonly AttrSpec[] = [
  // Graph.
  d('goal', 'G', TEXT, 'What the whole run should achieve; shown to every stage.'),
  d('label', 'GSNE', TEXT, 'Display name; for a subgraph it also becomes a class.'),
  d('model_stylesheet', 'G', { type: 'stylesheet' }, 'CSS-like rules assigning models to nodes.'),
  d('default_max_retries', 'G', COUNT, 'Retries for nodes without `max_retries`.', ['default_max_retry']),
  d('retry_target', 'GN', { type: 'node_id' }, 'Node to jump to when this fails or a goal gate is unmet.'),
  d(
    'fallback_retry_target',
    'GN',
    { type: 'node_id' },
    'Node to jump to when `retry_target` is unavailable.',
  ),
  d('default_fidelity', 'G', oneOf(FIDELITY), 'Context fidelity when neither edge nor node sets one.'),
  d('default_thread', 'G', TEXT, 'Thread id for `full` fidelity nodes without `thread_id`.'),
  d('max_node_visits', 'G', COUNT, 'Visits of any one node after which the run fails (0: no limit).'),
  d('checkpoint_exclude', 'G', TEXT, 'Comma-separated globs of files kept out of git checkpoints.'),
  d('stall_timeout', 'G', DURATION, 'Time without progress after which the run fails.'),
  d('rankdir', 'G', oneOf(RANKDIR), 'Layout direction (Graphviz).'),
  // Node.
  d('shape', 'N', TEXT, 'Graphviz shape; selects the handler when `type` is unset.'),
  d('type', 'N', TEXT, 'Handler type; overrides the shape.'),
  d('class', 'N', TEXT, 'Stylesheet classes, comma or space separated.'),
  d('prompt', 'N', { type: 'text_or_file' }, 'The instructions, or `@path` to a file holding them.'),
  d('max_retries', 'N', COUNT, 'Extra attempts after the first.'),
  d('retry_policy', 'N', oneOf(RETRY_POLICY), 'Backoff preset for retries.'),
  d('goal_gate', 'N', BOOL, 'The run may only exit once this node succeeded.'),
  d('fidelity', 'NE', oneOf(FIDELITY), 'How much prior context the stage sees.'),
  d('thread_id', 'NE', TEXT, 'Conversation thread shared by `full` fidelity stages.'),
  d('timeout', 'N', DURATION, 'Time limit for one attempt.'),
  d('max_visits', 'N', POSITIVE, 'Visits after which the run fails.'),
  d('model', 'N', TEXT, 'LLM model id.', ['llm_model']),
  d('provider', 'N', TEXT, 'LLM provider.', ['llm_provider']),
  d('reasoning_effort', 'N', oneOf(REASONING_EFFORT), 'Reasoning effort for models that support it.'),
  d('auto_status', 'N', BOOL, 'Mark the stage successful when the agent reports no status.'),
  d('allow_partial', 'N', BOOL, 'Accept `partial_success` when retries run out.'),
  d('output_schema', 'N', { type: 'schema' }, '`routing` or `@path` to a JSON Schema the output must match.'),
  d('output_retries', 'N', COUNT, 'Repair attempts when the output does not match its schema.'),
  d('backend', 'N', TEXT, 'Agent backend (built-in loop or an external agent).'),
  d('script', 'N', TEXT, 'The command a command node runs.', ['tool_command']),
  d('language', 'N', oneOf(LANGUAGE), 'Interpreter for `script`.'),
  d('join_policy', 'N', oneOf(JOIN_POLICY), 'When a fan-in proceeds.'),
  d('max_parallel', 'N', POSITIVE, 'Branches a parallel node runs at once.'),
  d('duration', 'N', DURATION, 'How long a wait node sleeps.'),
  d('acp.command', 'N', TEXT, 'Command line that starts an Agent Client Protocol agent (`backend="acp"`).'),
  d(
    'cli.command',
    'N',
    TEXT,
    'Command line that gets the prompt on stdin and answers on stdout (`backend="cli"`); ' +
      "without it, the claude, codex or gemini CLI of the model's family runs.",
  ),
  d('max_turns', 'N', POSITIVE, 'Most model calls an agent stage makes before it fails.'),
  d('human.default_choice', 'N', TEXT, 'Choice a human gate takes when nobody answers.'),
  d('stack.child_workflow', 'N', TEXT, 'Workflow file a manager loop supervises.', ['stack.child_dotfile']),
  d('manager.poll_interval', 'N', DURATION, 'How often a manager loop observes its child.'),
  d('manager.max_cycles', 'N', POSITIVE, 'Observation cycles before a manager loop gives up.'),
  d('manager.stop_condition', 'N', { type: 'condition' }, 'Condition that ends a manager loop.'),
  d('manager.actions', 'N', TEXT, 'What a manager loop may do (e.g. `observe,steer`).'),
  d('manager.*', 'N', TEXT, 'Further manager loop settings.'),
  // Edge.
  d('condition', 'E', { type: 'condition' }, 'The edge is taken only when this holds.'),
  d('weight', 'E', { type: 'integer', min: null }, 'Preference among eligible edges (higher first).'),
  d('loop_restart', 'E', BOOL, 'Taking the edge restarts the run with a fresh context.'),
];

const SCOPE_LETTER: Record<AttrScope, string> = { graph: 'G', subgraph: 'S', node: 'N', edge: 'E' };

function appliesTo(spec: AttrSpec, scope: AttrScope): boolean {
  return spec.scopes.includes(SCOPE_LETTER[scope]);
}

/** The entry for `key` written in `scope`: by name or alias, else by a `prefix.*` entry. */
export function lookupAttribute(scope: AttrScope, key: string): AttrSpec | null {
  const exact = DIALECT_ATTRIBUTES.find(
    (s) => appliesTo(s, scope) && (s.name === key || s.aliases.includes(key)),
  );
  if (exact !== undefined) return exact;
  const wildcard = DIALECT_ATTRIBUTES.find((s) => {
    if (!appliesTo(s, scope) || !s.name.endsWith('*')) return false;
    const prefix = s.name.slice(0, -1);
    return key.length > prefix.length && key.startsWith(prefix);
  });
  return wildcard ?? null;
}

/** Heddle's name for `key` in `scope` (`llm_model` gives `model`); `key` itself when unknown. */
export function canonicalKey(scope: AttrScope, key: string): string {
  const spec = lookupAttribute(scope, key);
  return spec === null || spec.name.endsWith('*') ? key : spec.name;
}
