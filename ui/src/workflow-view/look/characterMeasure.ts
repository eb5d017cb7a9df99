import type { FontSpec, MeasureText } from './textMetrics';

/**
 * From this many nodes on, a workflow's text is measured a character at a time (see
 * `characterMeasure`): measuring every label and subtitle of a 20,000-node graph whole takes
 * the canvas tens of thousands of calls, about 400 ms, where adding up each character's
 * advance takes a few milliseconds.
 */
export const MEASURE_BY_CHARACTER_FROM = 1000;

/**
 * Text widths as the sum of each character's advance, each character measured once per font
 * with `measure`. Kerning and ligatures are left out, so a width may be off by a pixel or two
 * (node boxes keep a few pixels of slack for that); a font is told apart by its size, weight
 * and family.
 */
export function characterMeasure(measure: MeasureText): MeasureText {
  const tables = new Map<string, Map<string, number>>();
  let lastFont: FontSpec | null = null;
  let lastTable = new Map<string, number>();
  return (text: string, font: FontSpec) => {
    if (font !== lastFont) {
      const key = `${font.size}:${font.bold === true ? 'b' : ''}:${font.mono === true ? 'm' : ''}`;
      let table = tables.get(key);
      if (table === undefined) {
        table = new Map();
        tables.set(key, table);
      }
      lastFont = font;
      lastTable = table;
    }
    let width = 0;
    for (const ch of text) {
      let advance = lastTable.get(ch);
      if (advance === undefined) {
        advance = measure(ch, font);
        lastTable.set(ch, advance);
      }
      width += advance;
    }
    return width;
  };
}

/** The measure for a workflow of `nodes` nodes: `measure` itself, by character for a very large one. */
export function measureForSize(measure: MeasureText, byCharacter: MeasureText, nodes: number): MeasureText {
  return nodes >= MEASURE_BY_CHARACTER_FROM ? byCharacter : measure;
}
