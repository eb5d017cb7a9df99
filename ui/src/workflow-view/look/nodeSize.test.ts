import { describe, expect, it } from 'vitest';
import { sizeEdgeLabel } from './edgeLabelSize';
import { DIAMOND_ICON, NODE_LABEL_FONT, NODE_LABEL_LINE, sizeNode } from './nodeSize';
import { estimateTextWidth } from './textMetrics';

describe('sizeNode', () => {
  it('gives longer labels wider boxes', () => {
    const short = sizeNode('Plan', 'Agent', 'rect');
    const long = sizeNode('Plan the whole migration', 'Agent', 'rect');
    expect(long.width).toBeGreaterThan(short.width);
  });

  it('wraps very long labels onto more lines and grows taller, not wider than the cap', () => {
    const label = 'Write a detailed implementation plan covering every module of the system';
    const box = sizeNode(label, 'Agent', 'rect');
    expect(box.lines.length).toBeGreaterThan(1);
    expect(box.height).toBeGreaterThan(sizeNode('Plan', 'Agent', 'rect').height);
    expect(box.width).toBeLessThan(320);
  });

  it('makes diamonds big enough that the label fits inside the rhombus', () => {
    const label = 'Did all the tests pass?';
    const diamond = sizeNode(label, 'Condition', 'diamond');
    const rect = sizeNode(label, 'Condition', 'rect');
    const text = estimateTextWidth(label, NODE_LABEL_FONT);
    const contentHeight = DIAMOND_ICON + NODE_LABEL_LINE * diamond.lines.length;
    expect(diamond.height).toBeGreaterThan(rect.height);
    expect(diamond.width * (1 - contentHeight / diamond.height)).toBeGreaterThanOrEqual(text);
  });

  it('leaves room for the slanted and pointed sides', () => {
    const rect = sizeNode('Run the tests', 'Command', 'rect');
    expect(sizeNode('Run the tests', 'Command', 'parallelogram').width).toBeGreaterThan(rect.width);
    expect(sizeNode('Run the tests', 'Command', 'hexagon').width).toBeGreaterThan(rect.width);
  });

  it('returns even sizes so handles sit on whole pixels', () => {
    const box = sizeNode('Odd', 'Agent', 'pill');
    expect(box.width % 2).toBe(0);
    expect(box.height % 2).toBe(0);
  });
});

describe('sizeEdgeLabel', () => {
  it('is null without label or condition', () => {
    expect(sizeEdgeLabel(null, null)).toBeNull();
    expect(sizeEdgeLabel('  ', null)).toBeNull();
  });

  it('stacks the label over the condition', () => {
    const both = sizeEdgeLabel('yes', 'outcome=success');
    const labelOnly = sizeEdgeLabel('yes', null);
    expect(both?.labelLines).toEqual(['yes']);
    expect(both?.conditionLines).toEqual(['outcome=success']);
    expect(both?.height).toBeGreaterThan(labelOnly?.height ?? 0);
  });
});
