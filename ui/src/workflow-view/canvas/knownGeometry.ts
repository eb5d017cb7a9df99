import { Position, type NodeHandle } from '@xyflow/react';
import { edgeSides } from '../flow/flowDirection';
import type { WorkflowFlowNode } from '../flow/flowTypes';
import { outlineAnchor, type Side } from '../look/shapeGeometry';

const POSITION: Record<Side, Position> = {
  top: Position.Top,
  right: Position.Right,
  bottom: Position.Bottom,
  left: Position.Left,
};

/**
 * The size React Flow would measure for a node and where its handles are, known in advance:
 * a handler node is drawn exactly its box, its in and out handles centred on the outline
 * where `HandlerNode` puts them; a subgraph box is its laid-out size. Given these, React Flow
 * draws edges in the first pass instead of waiting to measure every node, and a node drawn
 * as a sketch (without handle elements) still has its edges. Handles are points, so edges
 * meet the outline exactly.
 */
export function knownGeometry(node: WorkflowFlowNode): Pick<WorkflowFlowNode, 'measured' | 'handles'> {
  if (node.type === 'subgraph') {
    return node.width === undefined || node.height === undefined ? {} : { measured: { width: node.width, height: node.height } };
  }
  const { box, look, direction } = node.data;
  const sides = edgeSides(direction);
  const handle = (id: 'in' | 'out', type: 'source' | 'target', side: Side): NodeHandle => {
    const at = outlineAnchor(look.shape, box.width, box.height, side);
    return { id, type, position: POSITION[side], x: at.x, y: at.y, width: 0, height: 0 };
  };
  return {
    measured: { width: box.width, height: box.height },
    handles: [handle('in', 'target', sides.target), handle('out', 'source', sides.source)],
  };
}
