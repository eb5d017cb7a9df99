/**
 * Markdown's inline syntax (emphasis, strong, code spans, links, hard breaks) as a small
 * tree of plain data. Nothing here produces HTML: the tree is turned into React elements by
 * `MarkdownView`, so text from a file can never become markup.
 */

/** A run of inline content. */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'emphasis'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

/** Nesting deeper than this (emphasis in a link in emphasis ...) is kept as text. */
const MAX_DEPTH = 12;

const ESCAPABLE = new Set('\\`*_{}[]()#+-.!<>|~"\''.split(''));

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch);
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}

/** Appends text, merging it into a text node just before. */
function pushText(out: Inline[], text: string): void {
  if (text === '') return;
  const last = out.at(-1);
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** Remembers searches that found nothing, so a line full of unmatched `*` stays linear. */
type Misses = Set<string>;

/** Where the code span opened by the backtick run at `at` (`length` long) closes, or -1. */
function codeSpanEnd(text: string, at: number, length: number, end: number): number {
  let i = at + length;
  while (i < end) {
    const next = text.indexOf('`', i);
    if (next < 0 || next >= end) return -1;
    let run = next;
    while (run < end && text[run] === '`') run++;
    if (run - next === length) return next;
    i = run;
  }
  return -1;
}

function backtickRun(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && text[i] === '`') i++;
  return i - at;
}

/**
 * Where a `delim` run closing the one opened at `from` starts, or -1. Skips escapes and code
 * spans; a single `*` or `_` closer skips doubled runs (they belong to strong text).
 */
function closerAt(text: string, from: number, end: number, delim: string): number {
  const ch = delim[0] ?? '';
  let i = from;
  while (i < end) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '`') {
      const length = backtickRun(text, i, end);
      const close = codeSpanEnd(text, i, length, end);
      i = close < 0 ? i + length : close + length;
      continue;
    }
    if (c === ch) {
      let run = i;
      while (run < end && text[run] === ch) run++;
      const length = run - i;
      const fits = delim.length === 2 ? length >= 2 : length === 1 || length >= 3;
      const before = text[i - 1];
      const after = text[i + delim.length];
      const flanking = !isSpace(before) && (ch !== '_' || !isWordChar(after));
      if (fits && flanking && i > from) return delim.length === 2 ? run - 2 : i;
      i = run;
      continue;
    }
    i++;
  }
  return -1;
}

/** Link text longer than this is not looked for (keeps nested brackets linear). */
const MAX_LINK_TEXT = 2000;

/** Where the `]` matching the `[` at `at` is, or -1. */
function closingBracket(text: string, at: number, end: number): number {
  let depth = 0;
  const stop = Math.min(end, at + MAX_LINK_TEXT);
  for (let i = at; i < stop; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `(href "title")` right after a link's text: the href and where it ends, or null. */
function linkTarget(text: string, at: number, end: number): { href: string; next: number } | null {
  if (text[at] !== '(') return null;
  const close = text.indexOf(')', at);
  if (close < 0 || close >= end) return null;
  const inside = text.slice(at + 1, close).trim();
  const match = /^<?([^\s<>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?$/.exec(inside);
  if (match === null) return null;
  return { href: match[1] ?? '', next: close + 1 };
}

function parseRange(text: string, start: number, end: number, depth: number, misses: Misses): Inline[] {
  const out: Inline[] = [];
  let plain = start;
  let i = start;
  const flush = (upTo: number) => pushText(out, text.slice(plain, upTo));

  while (i < end) {
    const c = text[i];
    if (c === '\\' && i + 1 < end) {
      const next = text[i + 1] ?? '';
      if (next === '\n') {
        flush(i);
        out.push({ type: 'break' });
        i += 2;
        plain = i;
        continue;
      }
      if (ESCAPABLE.has(next)) {
        flush(i);
        pushText(out, next);
        i += 2;
        plain = i;
        continue;
      }
    }
    if (c === '\n') {
      // Two or more spaces before a line end make a hard break.
      let spaces = i;
      while (spaces > plain && text[spaces - 1] === ' ') spaces--;
      if (i - spaces >= 2) {
        flush(spaces);
        out.push({ type: 'break' });
        i += 1;
        plain = i;
        continue;
      }
    }
    if (c === '`') {
      const length = backtickRun(text, i, end);
      const key = `\`${length}@${depth}`;
      const close = misses.has(key) ? -1 : codeSpanEnd(text, i, length, end);
      if (close < 0) {
        misses.add(key);
        i += length;
        continue;
      }
      flush(i);
      let code = text.slice(i + length, close).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') {
        code = code.slice(1, -1);
      }
      out.push({ type: 'code', text: code });
      i = close + length;
      plain = i;
      continue;
    }
    if (c === '<') {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/.exec(text.slice(i, Math.min(end, i + 2048)));
      if (auto !== null && i + auto[0].length <= end) {
        flush(i);
        const href = auto[1] ?? '';
        out.push({ type: 'link', href, children: [{ type: 'text', text: href }] });
        i += auto[0].length;
        plain = i;
        continue;
      }
    }
    if (c === '[' && depth < MAX_DEPTH && !misses.has(`[@${depth}`)) {
      const close = closingBracket(text, i, end);
      const target = close < 0 ? null : linkTarget(text, close + 1, end);
      if (close < 0) misses.add(`[@${depth}`);
      if (target !== null) {
        flush(i);
        out.push({ type: 'link', href: target.href, children: parseRange(text, i + 1, close, depth + 1, new Set()) });
        i = target.next;
        plain = i;
        continue;
      }
    }
    if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
      const double = text[i + 1] === c;
      const delim = double ? c + c : c;
      const after = text[i + delim.length];
      const opens = !isSpace(after) && (c !== '_' || !isWordChar(text[i - 1]));
      const key = `${delim}@${depth}`;
      if (opens && !misses.has(key)) {
        const close = closerAt(text, i + delim.length, end, delim);
        if (close < 0) misses.add(key);
        else {
          flush(i);
          const children = parseRange(text, i + delim.length, close, depth + 1, new Set());
          out.push(double ? { type: 'strong', children } : { type: 'emphasis', children });
          i = close + delim.length;
          plain = i;
          continue;
        }
      }
      i += delim.length;
      continue;
    }
    i++;
  }
  flush(end);
  return out;
}

/** The inline content of `text` (one paragraph or heading). */
export function parseInline(text: string): Inline[] {
  return parseRange(text, 0, text.length, 0, new Set());
}
