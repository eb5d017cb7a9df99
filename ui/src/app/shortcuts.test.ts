import { describe, expect, it } from 'vitest';
import { shortcutFor, type KeyPress } from './shortcuts';

function press(key: string, fields: Partial<KeyPress> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, inTextField: false, ...fields };
}

describe('shortcutFor', () => {
  it('maps Ctrl and Cmd alike', () => {
    expect(shortcutFor(press('s', { ctrlKey: true }))).toBe('save');
    expect(shortcutFor(press('S', { metaKey: true }))).toBe('save');
    expect(shortcutFor(press('z', { ctrlKey: true }))).toBe('undo');
    expect(shortcutFor(press('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(shortcutFor(press('y', { metaKey: true }))).toBe('redo');
    expect(shortcutFor(press('o', { ctrlKey: true }))).toBe('open');
  });

  it('leaves text fields their own keys, except save', () => {
    const typing = { inTextField: true };
    expect(shortcutFor(press('s', { ctrlKey: true, ...typing }))).toBe('save');
    expect(shortcutFor(press('z', { ctrlKey: true, ...typing }))).toBeNull();
    expect(shortcutFor(press('?', typing))).toBeNull();
  });

  it('shows help on ? and ignores Alt combinations and plain letters', () => {
    expect(shortcutFor(press('?', { shiftKey: true }))).toBe('help');
    expect(shortcutFor(press('s', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutFor(press('s'))).toBeNull();
  });
});
