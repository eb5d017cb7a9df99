import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { nextChoice, readChoice, resolveTheme, THEME_STORAGE_KEY, type Theme, type ThemeChoice } from './themeChoice';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

function storedChoice(): ThemeChoice {
  try {
    return readChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    // Storage can be switched off; the system's preference is then used.
    return 'system';
  }
}

/** Sets `data-theme` on `<html>`; call before the first render so there is no flash. */
export function applyTheme(theme: Theme = resolveTheme(storedChoice(), systemPrefersDark())): void {
  document.documentElement.dataset.theme = theme;
}

/** The theme shown now, for components that draw their own colours (the canvas). */
export const ThemeContext = createContext<Theme>('light');

export function useShownTheme(): Theme {
  return useContext(ThemeContext);
}

/** The person's theme choice, remembered, kept applied as the system's preference changes. */
export function useTheme(): { choice: ThemeChoice; theme: Theme; cycle: () => void } {
  const [choice, setChoice] = useState<ThemeChoice>(storedChoice);
  const [systemDark, setSystemDark] = useState(systemPrefersDark);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => setSystemDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  const theme = resolveTheme(choice, systemDark);
  useEffect(() => applyTheme(theme), [theme]);
  const cycle = useCallback(() => {
    setChoice((current) => {
      const next = nextChoice(current);
      try {
        window.localStorage.setItem(THEME_STORAGE_KEY, next);
      } catch {
        // Not remembered; still applied for this session.
      }
      return next;
    });
  }, []);
  return { choice, theme, cycle };
}
