import { estimateTextWidth, wrapText, type FontSpec, type MeasureText } from './textMetrics';

export const EDGE_LABEL_FONT: FontSpec = { size: 12, bold: true };
export const EDGE_CONDITION_FONT: FontSpec = { size: 11, mono: true };
export const EDGE_LABEL_LINE = 16;
export const EDGE_CONDITION_LINE = 15;

const MAX_WIDTH = 200;
const PAD_X = 8;
const PAD_Y = 4;

/** The box of an edge's label chip and the lines it shows. */
export interface EdgeLabelBox {
  width: number;
  height: number;
  labelLines: string[];
  conditionLines: string[];
}

/** Size of the chip showing an edge's label and/or condition; null when it has neither. */
export function sizeEdgeLabel(
  label: string | null,
  condition: string | null,
  measure: MeasureText = estimateTextWidth,
): EdgeLabelBox | null {
  const hasLabel = label !== null && label.trim() !== '';
  const hasCondition = condition !== null && condition.trim() !== '';
  if (!hasLabel && !hasCondition) return null;
  const l = hasLabel ? wrapText(label, EDGE_LABEL_FONT, MAX_WIDTH, 2, measure) : { lines: [], width: 0 };
  const c = hasCondition
    ? wrapText(condition, EDGE_CONDITION_FONT, MAX_WIDTH, 3, measure)
    : { lines: [], width: 0 };
  const width = Math.max(l.width, c.width) + PAD_X * 2 + 4;
  const height =
    l.lines.length * EDGE_LABEL_LINE + c.lines.length * EDGE_CONDITION_LINE + PAD_Y * 2;
  return {
    width: Math.ceil(width),
    height: Math.ceil(height),
    labelLines: l.lines,
    conditionLines: c.lines,
  };
}
