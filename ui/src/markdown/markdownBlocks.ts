/**
 * Markdown's block structure (headings, paragraphs, fenced and indented code, lists, block
 * quotes, rules) read line by line into plain data, close to CommonMark for the prompts and
 * notes people write. Inline content is parsed by `markdownInline.ts`. No HTML is produced
 * or passed through: a raw `<script>` line is just a paragraph of text.
 */
import { parseInline, type Inline } from './markdownInline';

/** One block of a Markdown document. */
export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; content: Inline[] }
  | { type: 'paragraph'; content: Inline[] }
  | { type: 'code'; language: string | null; text: string }
  /** `tight`: no blank lines between items, so their paragraphs read as plain lines. */
  | { type: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'rule' };

/** Quotes in lists in quotes ... deeper than this are read as plain paragraphs. */
const MAX_DEPTH = 16;

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Leading tabs count as four spaces (enough for indentation to mean what it looks like). */
function expandLeadingTabs(line: string): string {
  const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
  return lead.includes('\t') ? lead.replace(/\t/g, '    ') + line.slice(lead.length) : line;
}

type Fence = { indent: number; marker: string; info: string };

function fenceOpen(line: string): Fence | null {
  const match = FENCE.exec(line);
  if (match === null) return null;
  const marker = match[2] ?? '';
  const info = (match[3] ?? '').trim();
  if (marker.startsWith('`') && info.includes('`')) return null;
  return { indent: (match[1] ?? '').length, marker, info };
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  const char = fence.marker[0] ?? '`';
  return indentOf(line) < 4 && trimmed.length >= fence.marker.length && [...trimmed].every((c) => c === char);
}

type ListMarker = { indent: number; ordered: boolean; symbol: string; start: number; contentIndent: number; rest: string };

function listMarker(line: string): ListMarker | null {
  if (RULE.test(line)) return null;
  const match = LIST_ITEM.exec(line);
  if (match === null) return null;
  const indent = (match[1] ?? '').length;
  const marker = match[2] ?? '';
  const gap = match[3] ?? '';
  const ordered = /\d/.test(marker);
  // A gap of five or more spaces starts indented code inside the item: count one.
  const width = gap === '' || gap.length > 4 ? 1 : gap.length;
  return {
    indent,
    ordered,
    symbol: ordered ? marker.slice(-1) : marker,
    start: ordered ? Number.parseInt(marker, 10) : 1,
    contentIndent: indent + marker.length + width,
    rest: gap.length > 4 ? gap.slice(1) + (match[4] ?? '') : (match[4] ?? ''),
  };
}

/** Whether `line` starts a block that ends a paragraph running into it. */
function interruptsParagraph(line: string): boolean {
  if (indentOf(line) >= 4) return false;
  const marker = listMarker(line);
  const startsList = marker !== null && marker.rest.trim() !== '' && (!marker.ordered || marker.start === 1);
  return fenceOpen(line) !== null || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || startsList;
}

function headingLevel(hashes: number): 1 | 2 | 3 | 4 | 5 | 6 {
  return Math.min(6, Math.max(1, hashes)) as 1 | 2 | 3 | 4 | 5 | 6;
}

function paragraph(lines: readonly string[]): Block {
  const text = lines.map((l) => l.trimStart()).join('\n').trimEnd();
  return { type: 'paragraph', content: parseInline(text) };
}

/** Reads a list starting at `lines[start]`; returns it and the index after it. */
function readList(lines: readonly string[], start: number, depth: number): { block: Block; next: number } {
  const first = listMarker(lines[start] ?? '');
  if (first === null) throw new Error('readList called on a line that is not a list item');
  const items: Block[][] = [];
  let tight = true;
  let i = start;
  while (i < lines.length) {
    const marker = listMarker(lines[i] ?? '');
    if (marker === null || marker.ordered !== first.ordered || marker.symbol !== first.symbol) break;
    const itemLines = [marker.rest];
    let lastBlank = marker.rest.trim() === '';
    i++;
    while (i < lines.length) {
      const line = lines[i] ?? '';
      if (isBlank(line)) {
        itemLines.push('');
        lastBlank = true;
      } else if (indentOf(line) >= marker.contentIndent) {
        itemLines.push(line.slice(marker.contentIndent));
        lastBlank = false;
      } else if (!lastBlank && !interruptsParagraph(line) && listMarker(line) === null) {
        itemLines.push(line.trimStart()); // a lazy continuation of the item's paragraph
      } else break;
      i++;
    }
    let trailingBlanks = 0;
    while (itemLines.length > 1 && itemLines.at(-1) === '') {
      itemLines.pop();
      trailingBlanks++;
    }
    const blocks = parseLines(itemLines, depth + 1);
    const nextIsItem = i < lines.length && listMarker(lines[i] ?? '') !== null;
    if ((trailingBlanks > 0 && nextIsItem) || (itemLines.includes('') && blocks.length > 1)) tight = false;
    items.push(blocks);
  }
  return { block: { type: 'list', ordered: first.ordered, start: first.start, tight, items }, next: i };
}

function parseLines(lines: readonly string[], depth: number): Block[] {
  if (depth > MAX_DEPTH) return lines.some((l) => !isBlank(l)) ? [paragraph(lines)] : [];
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      i++;
      continue;
    }

    if (indentOf(line) >= 4) {
      const code: string[] = [];
      while (i < lines.length && (isBlank(lines[i] ?? '') || indentOf(lines[i] ?? '') >= 4)) {
        code.push((lines[i] ?? '').slice(4));
        i++;
      }
      while (code.length > 0 && isBlank(code.at(-1) ?? '')) code.pop();
      blocks.push({ type: 'code', language: null, text: code.join('\n') });
      continue;
    }

    const fence = fenceOpen(line);
    if (fence !== null) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !closesFence(lines[i] ?? '', fence)) {
        const inner = lines[i] ?? '';
        code.push(inner.slice(Math.min(fence.indent, indentOf(inner))));
        i++;
      }
      i++; // the closing fence (or the end)
      const language = fence.info.split(/\s+/)[0] ?? '';
      blocks.push({ type: 'code', language: language === '' ? null : language, text: code.join('\n') });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading !== null) {
      const text = (heading[2] ?? '').replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
      blocks.push({ type: 'heading', level: headingLevel((heading[1] ?? '').length), content: parseInline(text) });
      i++;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length) {
        const inner = lines[i] ?? '';
        const match = QUOTE.exec(inner);
        if (match !== null) quoted.push(match[1] ?? '');
        else if (!isBlank(inner) && !interruptsParagraph(inner) && !isBlank(quoted.at(-1) ?? '')) {
          quoted.push(inner); // lazy continuation
        } else break;
        i++;
      }
      blocks.push({ type: 'quote', blocks: parseLines(quoted, depth + 1) });
      continue;
    }

    if (listMarker(line) !== null) {
      const { block, next } = readList(lines, i, depth);
      blocks.push(block);
      i = next;
      continue;
    }

    const text: string[] = [line];
    i++;
    let setext: 1 | 2 | null = null;
    while (i < lines.length) {
      const next = lines[i] ?? '';
      if (isBlank(next)) break;
      if (SETEXT_1.test(next) || SETEXT_2.test(next)) {
        setext = SETEXT_1.test(next) ? 1 : 2;
        i++;
        break;
      }
      if (interruptsParagraph(next)) break;
      text.push(next);
      i++;
    }
    if (setext !== null) {
      const content = parseInline(text.map((l) => l.trim()).join('\n'));
      blocks.push({ type: 'heading', level: setext, content });
    } else blocks.push(paragraph(text));
  }
  return blocks;
}

/** The blocks of a Markdown document. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n').map(expandLeadingTabs);
  return parseLines(lines, 0);
}
