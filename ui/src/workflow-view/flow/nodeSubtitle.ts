import type { AttrEntry } from '../../generated/AttrEntry';
import type { CardAttribute } from '../../generated/cardAttributes';
import type { Node } from '../../generated/Node';
import { lookOf } from '../look/handlerLooks';

/** The effective attribute with canonical key `key`. */
export function attrOf(attrs: readonly AttrEntry[], key: string): AttrEntry | undefined {
  return attrs.find((a) => a.canonical === key);
}

/**
 * The small line under a node's label: its kind, plus the one attribute that says most
 * about it (the model of an LLM node, the duration of a wait, the child of a manager).
 * Empty when it would only repeat the label.
 */
export function nodeSubtitle(node: Node): string {
  const title = lookOf(node.kind).title;
  // "Start" under a node labelled "Start" says nothing.
  const redundant = node.label.trim().toLowerCase() === title.toLowerCase();
  // A run's graph keeps only the card's attributes: a key outside them does not compile.
  const detailKey: Partial<Record<Node['kind'], CardAttribute>> = {
    agent: 'model',
    prompt: 'model',
    command: 'language',
    wait: 'duration',
    manager_loop: 'stack.child_workflow',
  };
  const key = detailKey[node.kind];
  const detail = key === undefined ? undefined : attrOf(node.attrs, key)?.raw.trim();
  if (detail) return `${title} · ${detail}`;
  return redundant ? '' : title;
}
