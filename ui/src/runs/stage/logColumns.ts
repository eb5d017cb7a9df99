/**
 * How many monospace columns a log line takes: what the log view makes room for, so its
 * longest line can be scrolled to (only the lines in view are in the page, so the browser
 * cannot measure the others).
 */
import type { AnsiSpan } from './ansi';

/** Tab stops of a terminal (and of CSS `tab-size`'s default). */
const TAB = 8;

/** East Asian wide and fullwidth characters, which take two columns. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** The columns `spans` take, tabs expanded to the next stop and wide characters counted twice. */
export function lineColumns(spans: readonly AnsiSpan[]): number {
  let columns = 0;
  for (const span of spans) {
    for (const ch of span.text) {
      if (ch === '\t') columns += TAB - (columns % TAB);
      else columns += WIDE.test(ch) ? 2 : 1;
    }
  }
  return columns;
}

/** The columns of the longest of `lines`. */
export function longestLine(lines: readonly (readonly AnsiSpan[])[]): number {
  let longest = 0;
  for (const line of lines) {
    // A line shorter in characters than the longest so far cannot be wider than twice that.
    let chars = 0;
    for (const span of line) chars += span.text.length;
    if (chars * 2 <= longest) continue;
    longest = Math.max(longest, lineColumns(line));
  }
  return longest;
}
