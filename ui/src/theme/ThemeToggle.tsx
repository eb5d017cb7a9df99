import { choiceLabel, nextChoice, type ThemeChoice } from './themeChoice';

/** Cycles the theme: system → light → dark. */
export function ThemeToggle({ choice, onCycle }: { choice: ThemeChoice; onCycle: () => void }) {
  const glyph = choice === 'system' ? '◐' : choice === 'light' ? '☀' : '☾';
  return (
    <button
      type="button"
      className="button is-small theme-toggle"
      data-testid="theme-toggle"
      data-theme-choice={choice}
      title={`${choiceLabel(choice)} (click for ${nextChoice(choice)})`}
      aria-label={choiceLabel(choice)}
      onClick={onCycle}
    >
      <span aria-hidden="true">{glyph}</span>
    </button>
  );
}
