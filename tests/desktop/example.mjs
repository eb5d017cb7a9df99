// Picks the example workflow the smoke test opens, and reads from its text what the canvas
// must show: the node ids and their labels. A small reading of DOT statements (node
// statements, edge chains, attribute lists), enough for the examples; not a DOT parser.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Preferred examples, simplest first; the first that exists is used. */
const PREFERRED = ['hello.dot', 'review-gate.dot', 'plan-implement-test.dot', 'triage-router.dot'];

const KEYWORDS = new Set(['graph', 'digraph', 'subgraph', 'node', 'edge', 'strict']);

/** Path of the first preferred example present under `examplesDir`. */
export function pickExample(examplesDir) {
  for (const name of PREFERRED) {
    const path = join(examplesDir, name);
    if (existsSync(path)) return path;
  }
  throw new Error(`none of ${PREFERRED.join(', ')} found in ${examplesDir}`);
}

const TOKEN =
  /\s+|\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"\\]|\\.)*)"|(->|--|[[\]{}=;,])|((?:[^\s[\]{}=;,"-]|-(?![->]))+)/gy;

/** Tokens as `{ kind: 'str' | 'punct' | 'word', text }`, comments and spaces dropped. */
function tokenize(source) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`cannot read DOT text at offset ${at}`);
    const [, str, punct, word] = match;
    if (str !== undefined) tokens.push({ kind: 'str', text: str.replace(/\\(.)/g, '$1') });
    else if (punct !== undefined) tokens.push({ kind: 'punct', text: punct });
    else if (word !== undefined) tokens.push({ kind: 'word', text: word });
  }
  return tokens;
}

/** Node ids and their `label`s of a DOT workflow. */
export function outline(source) {
  const tokens = tokenize(source);
  const ids = new Set();
  const labels = new Map();
  let i = 0;
  const isPunct = (text) => tokens[i]?.kind === 'punct' && tokens[i].text === text;
  const attrList = () => {
    const attrs = new Map();
    while (isPunct('[')) {
      i += 1;
      while (i < tokens.length && !isPunct(']')) {
        if (tokens[i + 1]?.text === '=' && tokens[i + 1].kind === 'punct') {
          attrs.set(tokens[i].text, tokens[i + 2]?.text);
          i += 3;
        } else {
          i += 1;
        }
      }
      i += 1;
    }
    return attrs;
  };
  while (i < tokens.length) {
    const token = tokens[i];
    if (token.kind === 'punct') {
      i += 1;
      continue;
    }
    if (KEYWORDS.has(token.text)) {
      i += 1;
      if (tokens[i]?.kind !== 'punct') i += 1; // a graph or subgraph name
      attrList();
      continue;
    }
    i += 1;
    if (isPunct('=')) {
      i += 2; // a graph attribute `key = value`
      continue;
    }
    const chain = [token.text];
    while (isPunct('->') || isPunct('--')) {
      i += 1;
      if (tokens[i]) chain.push(tokens[i].text);
      i += 1;
    }
    const attrs = attrList();
    for (const id of chain) ids.add(id);
    if (chain.length === 1 && attrs.has('label')) labels.set(token.text, attrs.get('label'));
  }
  return { ids, labels };
}

/** Reads and outlines a workflow file. */
export function readOutline(path) {
  return outline(readFileSync(path, 'utf8'));
}
