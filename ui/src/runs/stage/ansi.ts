/** A piece of terminal output with the colours and weight its ANSI SGR codes gave it. */
export type AnsiSpan = { text: string; fg: string | null; bg: string | null; bold: boolean; dim: boolean; underline: boolean };

/** The 16 basic colours as CSS custom properties (themed in stage.css). */
const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

function basic(index: number, bright: boolean): string {
  return `var(--ansi-${bright ? 'bright-' : ''}${BASIC[index] ?? 'white'})`;
}

/** One of the 256 xterm colours as CSS. */
function xterm(n: number): string {
  if (n < 8) return basic(n, false);
  if (n < 16) return basic(n - 8, true);
  if (n >= 232) {
    const level = 8 + (n - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const i = n - 16;
  const step = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return `rgb(${step(Math.floor(i / 36))}, ${step(Math.floor(i / 6) % 6)}, ${step(i % 6)})`;
}

type Style = Omit<AnsiSpan, 'text'>;

const PLAIN: Style = { fg: null, bg: null, bold: false, dim: false, underline: false };

/** Applies one SGR parameter list (`1;31`, `38;5;208`, ...) to a style. */
function applySgr(style: Style, params: number[]): Style {
  let next = { ...style };
  for (let i = 0; i < params.length; i += 1) {
    const p = params[i] ?? 0;
    if (p === 0) next = { ...PLAIN };
    else if (p === 1) next.bold = true;
    else if (p === 2) next.dim = true;
    else if (p === 4) next.underline = true;
    else if (p === 22) next = { ...next, bold: false, dim: false };
    else if (p === 24) next.underline = false;
    else if (p >= 30 && p <= 37) next.fg = basic(p - 30, false);
    else if (p >= 90 && p <= 97) next.fg = basic(p - 90, true);
    else if (p === 39) next.fg = null;
    else if (p >= 40 && p <= 47) next.bg = basic(p - 40, false);
    else if (p >= 100 && p <= 107) next.bg = basic(p - 100, true);
    else if (p === 49) next.bg = null;
    else if ((p === 38 || p === 48) && params[i + 1] === 5) {
      const colour = xterm(params[i + 2] ?? 0);
      if (p === 38) next.fg = colour;
      else next.bg = colour;
      i += 2;
    } else if ((p === 38 || p === 48) && params[i + 1] === 2) {
      const colour = `rgb(${params[i + 2] ?? 0}, ${params[i + 3] ?? 0}, ${params[i + 4] ?? 0})`;
      if (p === 38) next.fg = colour;
      else next.bg = colour;
      i += 4;
    }
  }
  return next;
}

// ESC [ params letter: SGR when the letter is `m`; other CSI sequences (cursor moves) are dropped.
// Matching the ESC control character is the point of this pattern.
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[([0-9;?]*)([A-Za-z])/g;

/**
 * Splits lines of terminal output into styled spans, one array per line. A style carries
 * over line ends, as in a terminal; escape sequences other than colours are removed.
 */
export function ansiLines(text: string): AnsiSpan[][] {
  const lines: AnsiSpan[][] = [];
  let style: Style = { ...PLAIN };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const spans: AnsiSpan[] = [];
    let last = 0;
    CSI.lastIndex = 0;
    for (let m = CSI.exec(line); m !== null; m = CSI.exec(line)) {
      if (m.index > last) spans.push({ text: line.slice(last, m.index), ...style });
      if (m[2] === 'm') {
        const params = (m[1] ?? '') === '' ? [0] : (m[1] ?? '').split(';').map((p) => Number.parseInt(p, 10) || 0);
        style = applySgr(style, params);
      }
      last = m.index + m[0].length;
    }
    if (last < line.length) spans.push({ text: line.slice(last), ...style });
    lines.push(spans);
  }
  if (lines.length > 1 && lines.at(-1)?.length === 0) lines.pop();
  return lines;
}
