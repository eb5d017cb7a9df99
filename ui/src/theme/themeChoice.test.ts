import { describe, expect, it } from 'vitest';
import { nextChoice, readChoice, resolveTheme } from './themeChoice';

describe('theme choice', () => {
  it('follows the system only when asked to', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('cycles system, light, dark', () => {
    expect(nextChoice('system')).toBe('light');
    expect(nextChoice('light')).toBe('dark');
    expect(nextChoice('dark')).toBe('system');
  });

  it('reads back only a known choice', () => {
    expect(readChoice('dark')).toBe('dark');
    expect(readChoice(null)).toBe('system');
    expect(readChoice('solarized')).toBe('system');
  });
});
