import type { AttrEntry } from '../../generated/AttrEntry';
import type { Value } from '../../generated/Value';

/** How an attribute value reads in the details panel. */
export function formatValue(value: Value, raw: string): string {
  switch (value.type) {
    case 'string':
    case 'enum':
      return value.value;
    case 'integer':
    case 'float':
      return String(value.value);
    case 'boolean':
      return value.value ? 'true' : 'false';
    case 'duration':
      return raw;
    case 'file_ref':
      return `@${value.value.path}`;
    case 'invalid':
      return raw;
  }
}

/** A short note on where an attribute came from, or null for one written on the element. */
export function originNote(entry: AttrEntry): string | null {
  switch (entry.origin) {
    case 'explicit':
      return null;
    case 'default':
      return 'default';
    case 'stylesheet':
      return 'stylesheet';
  }
}

/** The key as written, with Heddle's canonical name when the file used another one. */
export function keyLabel(entry: AttrEntry): string {
  return entry.key === entry.canonical ? entry.key : `${entry.key} (${entry.canonical})`;
}
