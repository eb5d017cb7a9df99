import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { SubgraphFlowNode } from '../flow/flowTypes';

/** The labelled box drawn around a subgraph's nodes. */
function SubgraphNodeView({ data }: NodeProps<SubgraphFlowNode>) {
  const name = data.subgraph.id;
  return (
    <div className="subgraph-node" data-subgraph-index={data.index}>
      <div className="subgraph-node__title">
        <span className="subgraph-node__label">{data.title}</span>
        {name !== null && name !== data.title ? (
          <span className="subgraph-node__name">{name}</span>
        ) : null}
      </div>
    </div>
  );
}

/** Memoised: while one node is dragged, the others are not drawn again. */
export const SubgraphNode = memo(SubgraphNodeView);
