/**
 * Typed inspector fields: which input an attribute gets (from the dialect catalog in
 * `attributeCatalog.ts`, generated from `crates/heddle-workflow/src/catalog/dialect.rs`) and
 * whether a typed-in value fits, normalised the way the Rust side reads it (enum values in
 * their listed spelling, `true`/`false` in lowercase, integers without signs or zeros).
 */
import type { HandlerKind } from '../generated/HandlerKind';
import { canonicalKey, lookupAttribute, type AttrScope, type AttrValueType } from './attributeCatalog';
import { bareSeconds, parseDuration } from './durations';
import { referencedPath } from './fileReference';
import { TYPE_NAMES } from './handlerKinds';

/** The input an inspector shows. */
export type FieldInput =
  | { input: 'text' }
  /** Multi-line instructions (`prompt`), or `@path` to a file holding them. */
  | { input: 'markdown' }
  | { input: 'condition' }
  | { input: 'duration' }
  | { input: 'enum'; options: readonly string[] }
  /** `min` null: no lower bound. */
  | { input: 'integer'; min: number | null }
  /** A decimal number; `min` null: no lower bound. */
  | { input: 'number'; min: number | null }
  | { input: 'boolean' }
  | { input: 'stylesheet' };

/** One inspector field. */
export type InspectorField = {
  /** The key as asked for (an alias stays an alias). */
  key: string;
  /** Heddle's name for it. */
  canonical: string;
  /** What it does; null for keys the dialect does not define. */
  summary: string | null;
  /** What its value must be. */
  valueType: AttrValueType;
  input: FieldInput;
};

/** A value that fits, normalised, or why it does not. */
export type FieldValueCheck = { ok: true; value: string } | { ok: false; message: string };

const LLM_KINDS: readonly HandlerKind[] = ['agent', 'prompt'];

/** `type` is free text in the catalog (checked by `type_known`); the inspector offers the known names. */
const TYPE_FIELD: AttrValueType = { type: 'enum', values: TYPE_NAMES.map(([name]) => name) };

function inputFor(valueType: AttrValueType, canonical: string, kind: HandlerKind | null): FieldInput {
  switch (valueType.type) {
    case 'integer':
      return { input: 'integer', min: valueType.min };
    case 'float':
      return { input: 'number', min: valueType.min };
    case 'enum':
      return { input: 'enum', options: valueType.values };
    case 'flag':
      return { input: 'boolean' };
    case 'boolean':
    case 'duration':
    case 'condition':
    case 'stylesheet':
      return { input: valueType.type };
    case 'text_or_file':
      // A human gate's prompt is the question it asks, not instructions for a model.
      return canonical === 'prompt' && kind !== null && !LLM_KINDS.includes(kind)
        ? { input: 'text' }
        : { input: 'markdown' };
    case 'string':
    case 'schema':
    case 'node_id':
      return { input: 'text' };
  }
}

/**
 * The field for attribute `key` written in `scope`; `kind` is the node's kind for node
 * attributes. Keys the dialect does not define (Graphviz drawing attributes, typos) are
 * plain text.
 */
export function fieldFor(scope: AttrScope, key: string, kind: HandlerKind | null = null): InspectorField {
  const spec = lookupAttribute(scope, key);
  const canonical = canonicalKey(scope, key);
  const valueType: AttrValueType =
    scope === 'node' && canonical === 'type' ? TYPE_FIELD : (spec?.valueType ?? { type: 'string' });
  return {
    key,
    canonical,
    summary: spec?.summary ?? null,
    valueType,
    input: inputFor(valueType, canonical, kind),
  };
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function fits(value: string): FieldValueCheck {
  return { ok: true, value };
}

function misfit(message: string): FieldValueCheck {
  return { ok: false, message };
}

function checkInteger(text: string, min: number | null): FieldValueCheck {
  const trimmed = text.trim();
  if (!/^[+-]?[0-9]+$/.test(trimmed)) return misfit(`\`${text}\` is not a whole number`);
  const n = BigInt(trimmed);
  if (n < I64_MIN || n > I64_MAX) return misfit(`\`${text}\` is not a whole number`);
  if (min !== null && n < BigInt(min)) return misfit(`\`${text}\` is below the minimum of ${min}`);
  return fits(n.toString());
}

function checkFloat(text: string, min: number | null): FieldValueCheck {
  const trimmed = text.trim();
  // What Rust's `f64` parsing accepts for a written number, without `inf`/`NaN`.
  if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(trimmed)) {
    return misfit(`\`${text}\` is not a number`);
  }
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return misfit(`\`${text}\` is not a number`);
  if (min !== null && n < min) return misfit(`\`${text}\` is below the minimum of ${min}`);
  return fits(trimmed);
}

function checkEnum(text: string, values: readonly string[]): FieldValueCheck {
  const wanted = text.trim().toLowerCase();
  const found = values.find((v) => v.toLowerCase() === wanted);
  if (found !== undefined) return fits(found);
  const quoted = values.map((v) => `\`${v}\``);
  const allowed =
    quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return misfit(`\`${text}\` is not one of ${allowed}`);
}

/** `@path` with a path, null when `text` is not a file reference, or the problem. */
function checkFileRef(text: string): FieldValueCheck | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('@')) return null;
  return referencedPath(trimmed) === null ? misfit('`@` must be followed by a file path') : fits(trimmed);
}

/** Whether `text` fits the field, and the value to write when it does. */
export function validateFieldValue(field: InspectorField, text: string): FieldValueCheck {
  const type = field.valueType;
  switch (type.type) {
    case 'string':
    case 'node_id':
    case 'condition':
    case 'stylesheet':
      return fits(text);
    case 'integer':
      return checkInteger(text, type.min);
    case 'float':
      return checkFloat(text, type.min);
    case 'flag':
    case 'boolean': {
      const lower = text.trim().toLowerCase();
      return lower === 'true' || lower === 'false'
        ? fits(lower)
        : misfit(`\`${text}\` is not a boolean; write \`true\` or \`false\``);
    }
    case 'duration': {
      // A bare number is seconds, as Fabro reads it; written with its unit it says so.
      const seconds = bareSeconds(text);
      if (seconds !== null) return fits(`${seconds}s`);
      const parsed = parseDuration(text);
      return parsed.ok ? fits(text.trim()) : misfit(parsed.message);
    }
    case 'enum':
      return checkEnum(text, type.values);
    case 'text_or_file':
      return checkFileRef(text) ?? fits(text);
    case 'schema':
      return checkFileRef(text) ?? checkEnum(text, ['routing']);
  }
}
