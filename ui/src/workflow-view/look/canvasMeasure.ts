import { estimateTextWidth, type FontSpec, type MeasureText } from './textMetrics';

/**
 * Measures text with a 2D canvas in the fonts the page actually uses (`--font-ui` and
 * `--font-mono` from the theme), caching by font and text. Falls back to the estimate
 * where there is no canvas.
 */
export function createCanvasMeasure(root: Element = document.documentElement): MeasureText {
  const context = document.createElement('canvas').getContext('2d');
  if (context === null) return estimateTextWidth;
  const style = getComputedStyle(root);
  const uiFamily = style.getPropertyValue('--font-ui').trim() || 'system-ui, sans-serif';
  const monoFamily = style.getPropertyValue('--font-mono').trim() || 'monospace';
  const cache = new Map<string, number>();
  let currentFont = '';
  return (text: string, font: FontSpec) => {
    const css = `${font.bold ? 650 : 400} ${font.size}px ${font.mono ? monoFamily : uiFamily}`;
    const key = `${css}\n${text}`;
    let width = cache.get(key);
    if (width === undefined) {
      // Setting a font parses it: only when it changes (calls mostly come in runs of one font).
      if (css !== currentFont) {
        context.font = css;
        currentFont = css;
      }
      width = context.measureText(text).width;
      cache.set(key, width);
    }
    return width;
  };
}
