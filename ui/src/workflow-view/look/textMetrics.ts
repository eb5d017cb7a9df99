/**
 * Text measurement for layout. Sizing functions take a `MeasureText`; the app passes one
 * backed by a canvas (exact for the fonts the page really has, see `canvasMeasure.ts`),
 * tests use `estimateTextWidth`, which needs no DOM. The canvas renders exactly the lines
 * computed here.
 */

/** Font the estimate is for. */
export interface FontSpec {
  /** Pixel size. */
  size: number;
  /** Monospace fonts have one advance for every character. */
  mono?: boolean;
  /** Bold text runs about 6% wider. */
  bold?: boolean;
}

const NARROW = new Set("iljtfrI!.,:;'|()[]{}` ");
const WIDE = new Set('mwMWOQGDHNU@%&');

/** Advance of one character, in ems, for a proportional UI font. */
function charEm(ch: string): number {
  if (NARROW.has(ch)) return ch === ' ' ? 0.28 : 0.3;
  if (WIDE.has(ch)) return 0.86;
  if (ch >= 'A' && ch <= 'Z') return 0.66;
  if (ch >= '0' && ch <= '9') return 0.58;
  if (ch.charCodeAt(0) > 0x2e7f) return 1.0; // CJK and other full-width scripts
  return 0.55;
}

/** Width of `text` in pixels when set in `font`. */
export type MeasureText = (text: string, font: FontSpec) => number;

/** Width estimated from per-character classes of a typical UI font; no DOM needed. */
export function estimateTextWidth(text: string, font: FontSpec): number {
  let ems = 0;
  for (const ch of text) ems += font.mono ? 0.61 : charEm(ch);
  return Math.ceil(ems * font.size * (font.bold ? 1.06 : 1));
}

/** Result of wrapping: the lines and the widest line's width. */
export interface WrappedText {
  lines: string[];
  width: number;
}

/** Splits a word wider than `maxWidth` into pieces that fit. */
function breakWord(word: string, font: FontSpec, maxWidth: number, measure: MeasureText): string[] {
  // Almost every word fits: one measurement instead of one per character.
  if (measure(word, font) <= maxWidth) return [word];
  const pieces: string[] = [];
  let current = '';
  for (const ch of word) {
    if (current !== '' && measure(current + ch, font) > maxWidth) {
      pieces.push(current);
      current = ch;
    } else {
      current += ch;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/**
 * Greedy word wrap to `maxWidth`, honouring explicit newlines (and DOT's `\n` escapes
 * already decoded). At most `maxLines` lines; the last one ends in `…` when text was cut.
 */
export function wrapText(
  text: string,
  font: FontSpec,
  maxWidth: number,
  maxLines = Number.POSITIVE_INFINITY,
  measure: MeasureText = estimateTextWidth,
): WrappedText {
  // Most labels are one word that fits (often the node's id): measured once, nothing split.
  if (maxLines >= 1 && !/\s/.test(text)) {
    const width = measure(text, font);
    if (width <= maxWidth) return { lines: [text], width: Math.ceil(width) };
  }
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let current = '';
    const words = paragraph.split(/\s+/).filter((w) => w !== '');
    for (const word of words.flatMap((w) => breakWord(w, font, maxWidth, measure))) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (current !== '' && measure(candidate, font) > maxWidth) {
        lines.push(current);
        current = word;
      } else {
        current = candidate;
      }
    }
    lines.push(current);
  }
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    const last = kept[maxLines - 1] ?? '';
    kept[maxLines - 1] = fitWithEllipsis(last, font, maxWidth, measure);
    return { lines: kept, width: widest(kept, font, measure) };
  }
  return { lines, width: widest(lines, font, measure) };
}

/** `text` shortened until `text…` fits `maxWidth`. */
function fitWithEllipsis(text: string, font: FontSpec, maxWidth: number, measure: MeasureText): string {
  let cut = text;
  while (cut !== '' && measure(`${cut}…`, font) > maxWidth) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function widest(lines: readonly string[], font: FontSpec, measure: MeasureText): number {
  return lines.reduce((max, line) => Math.max(max, Math.ceil(measure(line, font))), 0);
}
