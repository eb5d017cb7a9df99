import type { GraphRow, RowPoint } from './graphLayout';

/** Height of a graph row in pixels; `.commit-graph__row` in checkpoints.css matches it. */
export const ROW_HEIGHT = 46;
const LANE_WIDTH = 16;
const LANE_COLOURS = [
  'var(--accent)',
  'var(--kind-command)',
  'var(--kind-human)',
  'var(--kind-prompt)',
  'var(--kind-parallel)',
  'var(--kind-conditional)',
];

/** The colour of a lane (they cycle when there are many). */
export function laneColour(lane: number): string {
  return LANE_COLOURS[lane % LANE_COLOURS.length] ?? 'var(--accent)';
}

const x = (lane: number) => LANE_WIDTH / 2 + lane * LANE_WIDTH;
const y = (point: RowPoint) => (point === 'top' ? 0 : point === 'mid' ? ROW_HEIGHT / 2 : ROW_HEIGHT);

/** The graph cell of one row: the lines passing through it and the commit's dot. */
export function GraphLanes({ row, laneCount }: { row: GraphRow; laneCount: number }) {
  const width = Math.max(1, laneCount) * LANE_WIDTH;
  const dotX = x(row.lane);
  const colour = laneColour(row.lane);
  return (
    <svg className="commit-graph__lanes" width={width} height={ROW_HEIGHT} aria-hidden="true">
      {row.segments.map((s, i) => {
        const [x1, y1, x2, y2] = [x(s.fromLane), y(s.from), x(s.toLane), y(s.to)];
        const bend = (y1 + y2) / 2;
        const d = x1 === x2 ? `M${x1} ${y1}V${y2}` : `M${x1} ${y1}C${x1} ${bend} ${x2} ${bend} ${x2} ${y2}`;
        return <path key={i} d={d} stroke={laneColour(s.fromLane)} className="commit-graph__line" />;
      })}
      {row.entry.current ? (
        <>
          <circle cx={dotX} cy={ROW_HEIGHT / 2} r={6.5} className="commit-graph__ring" stroke={colour} />
          <circle cx={dotX} cy={ROW_HEIGHT / 2} r={3.5} fill={colour} />
        </>
      ) : (
        <circle cx={dotX} cy={ROW_HEIGHT / 2} r={4.5} fill={colour} className="commit-graph__dot" />
      )}
    </svg>
  );
}
