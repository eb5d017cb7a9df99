import type { NodeShape } from './handlerLooks';
import { estimateTextWidth, wrapText, type FontSpec, type MeasureText } from './textMetrics';

/** Fonts of a node card; `nodes.css` uses the same sizes. */
export const NODE_LABEL_FONT: FontSpec = { size: 13, bold: true };
export const NODE_TITLE_FONT: FontSpec = { size: 11 };

/** Line heights in pixels, matching `nodes.css`. */
export const NODE_LABEL_LINE = 17;
export const NODE_TITLE_LINE = 15;

const ICON = 28;
export const DIAMOND_ICON = 20;
const ICON_GAP = 10;
const PAD_X = 14;
const PAD_Y = 11;
const MAX_LABEL_WIDTH = 210;
const MAX_LABEL_LINES = 3;
/** Room for sub-pixel differences between measuring and rendering. */
const TEXT_SLACK = 4;

/** A node's computed box and the label lines to render in it. */
export interface NodeBox {
  width: number;
  height: number;
  lines: string[];
}

/** Extra room a shape's outline takes around the content box. */
function shapeInsets(shape: NodeShape, height: number): { x: number; top: number } {
  switch (shape) {
    case 'pill':
      return { x: height / 2 - 6, top: 0 };
    case 'parallelogram':
      return { x: 14, top: 0 };
    case 'hexagon':
      return { x: height / 4 + 4, top: 0 };
    case 'tab':
      return { x: 0, top: 8 };
    case 'house':
      return { x: 0, top: 14 };
    case 'rect':
    case 'diamond':
      return { x: 0, top: 0 };
  }
}

/**
 * Size of a node from its label, subtitle and shape. Content is an icon beside a text block
 * (label lines over a small subtitle); diamonds stack the icon above the text and grow so
 * the text fits inside the rhombus.
 */
export function sizeNode(
  label: string,
  subtitle: string,
  shape: NodeShape,
  measure: MeasureText = estimateTextWidth,
): NodeBox {
  const wrapped = wrapText(label, NODE_LABEL_FONT, MAX_LABEL_WIDTH, MAX_LABEL_LINES, measure);
  const textWidth =
    Math.max(wrapped.width, Math.ceil(measure(subtitle, NODE_TITLE_FONT))) + TEXT_SLACK;
  const textHeight =
    wrapped.lines.length * NODE_LABEL_LINE + (subtitle === '' ? 0 : NODE_TITLE_LINE);

  if (shape === 'diamond') {
    // Icon over the label, no subtitle: the rhombus already says "condition". At the
    // content's top and bottom edge a rhombus of height H is W * (1 - c / H) wide.
    const contentHeight = DIAMOND_ICON + 2 + wrapped.lines.length * NODE_LABEL_LINE;
    const height = Math.max(84, Math.ceil(contentHeight * 2.1));
    const free = 1 - contentHeight / height;
    const width = Math.max(132, Math.ceil((wrapped.width + TEXT_SLACK + 16) / free));
    return { width: even(width), height: even(height), lines: wrapped.lines };
  }

  const contentHeight = Math.max(ICON, textHeight);
  const baseHeight = contentHeight + PAD_Y * 2;
  const insets = shapeInsets(shape, baseHeight);
  const minWidth = shape === 'pill' ? 112 : 168;
  const width = Math.max(minWidth, PAD_X * 2 + ICON + ICON_GAP + textWidth + insets.x * 2);
  return {
    width: even(Math.ceil(width)),
    height: even(Math.ceil(baseHeight + insets.top)),
    lines: wrapped.lines,
  };
}

/** Rounds up to an even number so centred handles land on whole pixels. */
function even(n: number): number {
  return n % 2 === 0 ? n : n + 1;
}

/** Horizontal padding inside the shape, for the renderer. */
export function contentInsets(shape: NodeShape, height: number): { x: number; top: number } {
  const base = shapeInsets(shape, height);
  return { x: base.x + PAD_X, top: base.top };
}
