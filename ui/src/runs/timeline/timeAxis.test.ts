import { describe, expect, it } from 'vitest';
import { axisTicks, formatDuration, formatOffset, stepDecimals, tickStep } from './timeAxis';

describe('formatOffset', () => {
  it('writes seconds, minutes and hours briefly', () => {
    expect(formatOffset(0)).toBe('0s');
    expect(formatOffset(1500, 1)).toBe('1.5s');
    expect(formatOffset(2000, 1)).toBe('2s');
    expect(formatOffset(130_000)).toBe('2m 10s');
    expect(formatOffset(120_000)).toBe('2m');
    expect(formatOffset(130_500, 1)).toBe('2m 10.5s');
    expect(formatOffset(3_900_000)).toBe('1h 5m');
    expect(formatOffset(3_630_000)).toBe('1h 0m 30s');
    expect(formatOffset(59_999.6)).toBe('1m');
    expect(formatOffset(-1500, 1)).toBe('-1.5s');
    expect(formatOffset(20, 3)).toBe('0.02s');
  });
});

describe('formatDuration', () => {
  it('picks a unit for the length', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(350)).toBe('350ms');
    expect(formatDuration(999.7)).toBe('1s');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(12_400)).toBe('12s');
    expect(formatDuration(130_000)).toBe('2m 10s');
    expect(formatDuration(3_930_000)).toBe('1h 6m');
  });
});

describe('axis ticks', () => {
  it('chooses a readable step for the space', () => {
    expect(tickStep(10_000, 1000, 80)).toBe(1000);
    expect(tickStep(10_000, 400, 80)).toBe(2000);
    expect(tickStep(100, 1000, 80)).toBe(10);
    expect(tickStep(3_600_000, 1000, 80)).toBe(5 * 60_000);
    expect(tickStep(100 * 86_400_000, 1000, 80)).toBe(8 * 86_400_000);
    expect(tickStep(0, 1000)).toBe(1000);
    expect(stepDecimals(500)).toBe(1);
    expect(stepDecimals(20)).toBe(2);
    expect(stepDecimals(5)).toBe(3);
  });

  it('puts ticks on round multiples inside the window', () => {
    const { step, ticks } = axisTicks({ start: 700, end: 3100 }, 480, 80);
    expect(step).toBe(500);
    expect(ticks.map((t) => t.t)).toEqual([1000, 1500, 2000, 2500, 3000]);
    expect(ticks.map((t) => t.label)).toEqual(['1s', '1.5s', '2s', '2.5s', '3s']);
  });

  it('labels minute ticks like 2m 10s', () => {
    const { ticks } = axisTicks({ start: 120_000, end: 140_000 }, 200, 80);
    expect(ticks.map((t) => t.label)).toEqual(['2m', '2m 10s', '2m 20s']);
  });
});
