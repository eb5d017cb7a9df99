import { Position, type NodeHandle } from '@xyflow/react';
import { edgeSides } from '../flow/flowDirection';
import type { HandlerNodeData, WorkflowFlowNode } from '../flow/flowTypes';
import { outlineAnchor, type Point, type Side } from '../look/shapeGeometry';

const POSITION: Record<Side, Position> = {
  top: Position.Top,
  right: Position.Right,
  bottom: Position.Bottom,
  left: Position.Left,
};

/** Where one handle of a node sits: the side it faces and its point on the outline. */
export type HandlePlace = { position: Position; at: Point };

/** A handler node's in and out handles: on the sides its flow enters and leaves by. */
export function handlePlaces(data: HandlerNodeData): { in: HandlePlace; out: HandlePlace } {
  const { look, box, direction } = data;
  const sides = edgeSides(direction);
  const place = (side: Side): HandlePlace => ({
    position: POSITION[side],
    at: outlineAnchor(look.shape, box.width, box.height, side),
  });
  return { in: place(sides.target), out: place(sides.source) };
}

/**
 * The size React Flow would measure for a node and where its handles are, known in advance:
 * a handler node is drawn exactly its box, its in and out handles centred on the outline
 * where `HandlerNode` puts them (`handlePlaces`); a subgraph box is its laid-out size. Given
 * these, React Flow draws edges in the first pass instead of waiting to measure every node,
 * and a node drawn only in the sketch still has its edges. Handles are points, so edges meet
 * the outline exactly.
 */
export function knownGeometry(node: WorkflowFlowNode): Pick<WorkflowFlowNode, 'measured' | 'handles'> {
  if (node.type === 'subgraph') {
    return node.width === undefined || node.height === undefined ? {} : { measured: { width: node.width, height: node.height } };
  }
  const { box } = node.data;
  const places = handlePlaces(node.data);
  const handle = (id: 'in' | 'out', type: 'source' | 'target', place: HandlePlace): NodeHandle => ({
    id,
    type,
    position: place.position,
    x: place.at.x,
    y: place.at.y,
    width: 0,
    height: 0,
  });
  return {
    measured: { width: box.width, height: box.height },
    handles: [handle('in', 'target', places.in), handle('out', 'source', places.out)],
  };
}
