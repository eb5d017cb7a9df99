import { memo } from 'react';
import { clusterDescription } from './barDescription';
import { BAR_INSET, ROW_HEIGHT, customProperties, rowTop } from './timelineGeometry';
import type { BarPhase } from './timelineMoment';
import type { BarCluster } from './visibleBars';

interface TimelineClusterProps {
  cluster: BarCluster;
  /** Where its visits stood at the scrubber's time; null when nothing is scrubbed. */
  phase: BarPhase | null;
  /** Zooms onto it; must keep its identity between renders. */
  onOpen(cluster: BarCluster): void;
}

/** Where a cluster stood at `t`: pending before its first visit, finished after its last. */
export function clusterPhaseAt(cluster: BarCluster, t: number): BarPhase {
  if (!cluster.open && cluster.end <= t) return 'finished';
  if (t < cluster.start) return 'pending';
  return 'running';
}

/**
 * Stage visits too narrow to tell apart at this zoom, drawn as one block (red where some
 * failed, striped where some failed and some did not); a click zooms onto them.
 */
function TimelineClusterView({ cluster, phase, onOpen }: TimelineClusterProps) {
  const all = cluster.bars.length;
  const status = cluster.failed === 0 ? 'status-success' : cluster.failed === all ? 'status-fail' : 'status-fail is-mixed';
  const classes = [
    'timeline-bar',
    'timeline-cluster',
    status,
    phase === 'pending' ? 'is-pending' : '',
    phase === 'running' ? 'is-current' : '',
  ];
  const description = clusterDescription(cluster.bars, cluster.failed);
  return (
    <button
      type="button"
      className={classes.filter((c) => c !== '').join(' ')}
      style={{
        ...customProperties({ '--bar-start': cluster.start, '--bar-end': cluster.end }),
        top: rowTop(cluster.row),
        height: ROW_HEIGHT - 2 * BAR_INSET,
      }}
      data-testid="timeline-cluster"
      data-count={all}
      aria-label={`${description}: zoom in`}
      title={`${description}\nClick to zoom in`}
      onClick={() => onOpen(cluster)}
    />
  );
}

/** A cluster; re-renders only when what it holds or its phase changes. */
export const TimelineCluster = memo(
  TimelineClusterView,
  (prev, next) =>
    prev.phase === next.phase &&
    prev.onOpen === next.onOpen &&
    prev.cluster.key === next.cluster.key &&
    prev.cluster.row === next.cluster.row &&
    prev.cluster.start === next.cluster.start &&
    prev.cluster.end === next.cluster.end &&
    prev.cluster.bars.length === next.cluster.bars.length &&
    prev.cluster.failed === next.cluster.failed &&
    prev.cluster.open === next.cluster.open,
);
