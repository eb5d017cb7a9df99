import { describe, expect, it } from 'vitest';
import { characterMeasure, MEASURE_BY_CHARACTER_FROM, measureForSize } from './characterMeasure';
import { estimateTextWidth, type FontSpec, type MeasureText } from './textMetrics';

/** A measure that counts its calls. */
function counting(): { measure: MeasureText; calls: string[] } {
  const calls: string[] = [];
  return { calls, measure: (text, font) => (calls.push(text), estimateTextWidth(text, font) + 0.25) };
}

describe('characterMeasure', () => {
  const label: FontSpec = { size: 13, bold: true };
  const title: FontSpec = { size: 11 };

  it('adds up the advance of each character', () => {
    const { measure } = counting();
    const byCharacter = characterMeasure(measure);
    expect(byCharacter('n123', label)).toBeCloseTo(measure('n', label) + measure('1', label) + measure('2', label) + measure('3', label));
    expect(byCharacter('', label)).toBe(0);
  });

  it('measures each character once per font', () => {
    const { measure, calls } = counting();
    const byCharacter = characterMeasure(measure);
    for (let i = 0; i < 500; i++) byCharacter(`n${i}`, label);
    expect(calls.sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n']);
    calls.length = 0;
    byCharacter('n1', title);
    byCharacter('n1', { size: 11 });
    expect(calls).toEqual(['n', '1']);
  });

  it('tells fonts apart by size, weight and family', () => {
    const byCharacter = characterMeasure((text, font) => text.length * font.size * (font.bold === true ? 1.1 : 1) * (font.mono === true ? 0.6 : 0.5));
    expect(byCharacter('WWW', { size: 26 })).toBeGreaterThan(byCharacter('WWW', { size: 13 }));
    expect(byCharacter('WWW', { size: 13, bold: true })).toBeGreaterThan(byCharacter('WWW', { size: 13 }));
    expect(byCharacter('WWW', { size: 13, mono: true })).not.toBe(byCharacter('WWW', { size: 13 }));
  });

  it('counts a character outside the basic plane as one', () => {
    const { measure, calls } = counting();
    characterMeasure(measure)('😀', label);
    expect(calls).toEqual(['😀']);
  });
});

describe('measureForSize', () => {
  it('measures by character only for a very large workflow', () => {
    const whole: MeasureText = () => 1;
    const byCharacter: MeasureText = () => 2;
    expect(measureForSize(whole, byCharacter, MEASURE_BY_CHARACTER_FROM - 1)).toBe(whole);
    expect(measureForSize(whole, byCharacter, MEASURE_BY_CHARACTER_FROM)).toBe(byCharacter);
  });
});
