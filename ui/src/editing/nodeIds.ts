/**
 * Node ids the editor may write: the dialect's `[A-Za-z_][A-Za-z0-9_]*` (the Rust edit API
 * refuses anything else in `add_node` and `rename_node`), never a DOT keyword, and fresh
 * ids for new nodes.
 */
import { accept, refuse, type Checked } from './editRefusal';

const NODE_ID = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** DOT keywords; Graphviz reads them in any case, so they cannot be bare ids. */
const KEYWORDS: readonly string[] = ['strict', 'graph', 'digraph', 'node', 'edge', 'subgraph'];

export function isDotKeyword(id: string): boolean {
  return KEYWORDS.includes(id.toLowerCase());
}

/** Accepts `id` if the editor can write it as a node id, else says why not. */
export function checkNodeId(id: string): Checked<string> {
  if (id === '') return refuse('empty_id', 'A node id cannot be empty.');
  if (!NODE_ID.test(id)) {
    return refuse(
      'invalid_id',
      `\`${id}\` is not a valid node id: use letters, digits and \`_\`, not starting with a digit.`,
    );
  }
  if (isDotKeyword(id)) {
    return refuse('reserved_id', `\`${id}\` is a DOT keyword and cannot be a node id.`);
  }
  return accept(id);
}

/**
 * `base` if no node uses it, else `base_2`, `base_3`, ... Ids are compared without case,
 * since node ids become file names and `Plan` and `plan` would share one on some disks.
 */
export function freshNodeId(base: string, existing: Iterable<string>): string {
  const taken = new Set<string>();
  for (const id of existing) taken.add(id.toLowerCase());
  const free = (id: string) => !taken.has(id.toLowerCase()) && !isDotKeyword(id);
  if (free(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}_${n}`;
    if (free(candidate)) return candidate;
  }
}
