import type { Edge as FlowEdge, Node as FlowNode } from '@xyflow/react';
import type { Diagnostic } from '../../generated/Diagnostic';
import type { Edge } from '../../generated/Edge';
import type { Node } from '../../generated/Node';
import type { Severity } from '../../generated/Severity';
import type { SubgraphInfo } from '../../generated/SubgraphInfo';
import type { EdgeLabelBox } from '../look/edgeLabelSize';
import type { HandlerLook } from '../look/handlerLooks';
import type { NodeBox } from '../look/nodeSize';
import type { Point } from '../look/shapeGeometry';
import type { FlowDirection } from './flowDirection';

/** Diagnostics attached to one canvas element. */
export type AttachedDiagnostics = {
  list: Diagnostic[];
  /** The most severe among them; null when there are none. */
  worst: Severity | null;
};

/** How a node stands in a run shown on the canvas (see `runMarks`; none in the editor). */
export type NodeRunMark = {
  /** `pending`, `running`, `retrying`, `waiting`, `succeeded`, `failed`, `skipped`, `interrupted`. */
  status: string;
  visits: number;
  retries: number;
};

/** An edge a run followed (see `runMarks`; none in the editor or for edges not taken). */
export type EdgeRunMark = {
  /** Why it was chosen (`condition`, `label`, `weight`, ...). */
  reason: string;
  count: number;
  /** It was the last edge the run followed. */
  latest: boolean;
};

/** Data of a node that runs a handler. */
export type HandlerNodeData = {
  node: Node;
  look: HandlerLook;
  subtitle: string;
  box: NodeBox;
  direction: FlowDirection;
  diagnostics: AttachedDiagnostics;
};

/** Data of a labelled box drawn around a subgraph's nodes. */
export type SubgraphNodeData = {
  index: number;
  subgraph: SubgraphInfo;
  title: string;
};

export type HandlerFlowNode = FlowNode<HandlerNodeData, 'handler'>;
export type SubgraphFlowNode = FlowNode<SubgraphNodeData, 'subgraph'>;
export type WorkflowFlowNode = HandlerFlowNode | SubgraphFlowNode;

/** Data of an edge: the workflow edge, its label chip, and its route once laid out. */
export type WorkflowEdgeData = {
  edge: Edge;
  labelBox: EdgeLabelBox | null;
  diagnostics: AttachedDiagnostics;
  /** Polyline in flow coordinates from the layout; null before layout. */
  route: Point[] | null;
  /** Centre of the label chip in flow coordinates; null before layout or without label. */
  labelCenter: Point | null;
};

export type WorkflowFlowEdge = FlowEdge<WorkflowEdgeData, 'workflow'>;

/** Everything the canvas draws. Parents precede their children in `nodes`. */
export type WorkflowFlow = {
  nodes: WorkflowFlowNode[];
  edges: WorkflowFlowEdge[];
  direction: FlowDirection;
};
