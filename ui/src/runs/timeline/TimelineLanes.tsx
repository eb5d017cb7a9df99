import { memo } from 'react';
import { ROW_HEIGHT } from './timelineGeometry';
import type { TimelineLane } from './timelineLayout';

function laneKey(lane: TimelineLane): string {
  return lane.id === null ? 'main' : `branch:${lane.id}`;
}

/** The lanes' names, one per lane, as tall as the lane's rows. */
export const LaneLabels = memo(function LaneLabels({ lanes }: { lanes: TimelineLane[] }) {
  return (
    <div className="timeline-lanes__labels">
      {lanes.map((lane) => (
        <div
          key={laneKey(lane)}
          className={lane.id === null ? 'timeline-lane__label is-main' : 'timeline-lane__label'}
          style={{ height: lane.rowCount * ROW_HEIGHT }}
          title={lane.label}
        >
          {lane.label}
        </div>
      ))}
    </div>
  );
});

/** The lanes' background bands behind the bars. */
export const LaneBands = memo(function LaneBands({ lanes }: { lanes: TimelineLane[] }) {
  return (
    <>
      {lanes.map((lane) => (
        <div
          key={laneKey(lane)}
          className="timeline-lane__band"
          style={{ top: lane.firstRow * ROW_HEIGHT, height: lane.rowCount * ROW_HEIGHT }}
          aria-hidden="true"
        />
      ))}
    </>
  );
});
