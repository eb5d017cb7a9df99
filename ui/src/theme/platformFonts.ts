/**
 * Chooses the page's font families for the platform, as the app loads: imported first by
 * `main.tsx`, so the attribute is set before any module measures text (the canvas reads
 * `--font-ui` once) and before the first render.
 */

/** Which font families the theme uses (see `theme.css`). */
export type FontFamilies = 'fontconfig' | 'named';

/**
 * `fontconfig` on Linux (not Android), where the generic families name the desktop's own
 * fonts and every missing named family is a costly lookup; `named` elsewhere, where the
 * system fonts are reached by name (`system-ui`, Segoe UI, SF).
 */
export function fontFamiliesFor(userAgent: string): FontFamilies {
  return /\bLinux\b/.test(userAgent) && !/\bAndroid\b/.test(userAgent) ? 'fontconfig' : 'named';
}

if (typeof document !== 'undefined' && typeof navigator !== 'undefined') {
  document.documentElement.dataset.fonts = fontFamiliesFor(navigator.userAgent);
}
