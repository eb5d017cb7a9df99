/**
 * The workflow dialect's attributes: where each applies, its value type and its aliases.
 * The table is generated from `crates/heddle-workflow/src/catalog/dialect.rs` into
 * `generated/dialectAttributes.ts` (the bindings test keeps it current). Graphviz's drawing
 * attributes are left out: the inspector shows them as plain text.
 */
import { DIALECT_ATTRIBUTE_TABLE } from '../generated/dialectAttributes';

/** Where an attribute is written. */
export type AttrScope = 'graph' | 'subgraph' | 'node' | 'edge';

/** The type an attribute's value must have (the catalog's `ValueType`). */
export type AttrValueType =
  | { type: 'string' }
  /** A whole number; `min` null means no lower bound. */
  | { type: 'integer'; min: number | null }
  /** A decimal number (`weight`, as in Graphviz); `min` null means no lower bound. */
  | { type: 'float'; min: number | null }
  | { type: 'boolean' }
  /** A boolean where other text reads as `true` with a warning (`goal_gate`, as Fabro reads it). */
  | { type: 'flag' }
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

/** The dialect's attributes, in the Rust catalog's order (generated from it). */
export const DIALECT_ATTRIBUTES: readonly AttrSpec[] = DIALECT_ATTRIBUTE_TABLE;

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
