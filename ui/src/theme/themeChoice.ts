/**
 * Light and dark themes: the person's choice (follow the system, or always light or dark),
 * where it is remembered, and what it comes to. The document carries the outcome as
 * `data-theme` on `<html>`, which the CSS variables in `app/theme.css` key on.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'heddle.theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

/** The theme shown for `choice` when the system prefers dark or not. */
export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

/** The choice after `choice` in the toggle's cycle: system → light → dark → system. */
export function nextChoice(choice: ThemeChoice): ThemeChoice {
  return CHOICES[(CHOICES.indexOf(choice) + 1) % CHOICES.length] ?? 'system';
}

/** The remembered choice; anything unreadable is `system`. */
export function readChoice(stored: string | null): ThemeChoice {
  return CHOICES.find((c) => c === stored) ?? 'system';
}

/** What the toggle says about `choice`. */
export function choiceLabel(choice: ThemeChoice): string {
  return choice === 'system' ? 'Theme: system' : choice === 'light' ? 'Theme: light' : 'Theme: dark';
}
