import type { HandlerKind } from '../generated/HandlerKind';
import { KindIcon } from './icons/KindIcon';
import { HANDLER_KINDS, lookOf } from './look/handlerLooks';

/** Buttons that add a node of each handler kind (except start, which a workflow has once). */
export function NodePalette({ onAdd }: { onAdd: (kind: HandlerKind) => void }) {
  return (
    <nav className="node-palette" aria-label="Add a node">
      {HANDLER_KINDS.filter((kind) => kind !== 'start').map((kind) => {
        const look = lookOf(kind);
        return (
          <button
            key={kind}
            type="button"
            className={`node-palette__item ${look.tone}`}
            data-testid={`palette-${kind}`}
            title={`Add ${look.title.toLowerCase()} node`}
            onClick={() => onAdd(kind)}
          >
            <KindIcon name={look.icon} size={14} />
            <span>{look.title}</span>
          </button>
        );
      })}
    </nav>
  );
}
