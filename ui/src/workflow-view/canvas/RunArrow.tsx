/** The arrowhead of an edge a run took (React Flow's closed arrow, in the taken colour). */
const TAKEN_ARROW_ID = 'heddle-run-arrow-taken';
export const TAKEN_ARROW_URL = `url('#${TAKEN_ARROW_ID}')`;

/** Defines the taken arrowhead once for a canvas showing a run. */
export function RunArrowDefs() {
  return (
    <svg className="run-arrow-defs" aria-hidden="true">
      <defs>
        <marker
          className="react-flow__arrowhead"
          id={TAKEN_ARROW_ID}
          markerWidth="16"
          markerHeight="16"
          viewBox="-10 -10 20 20"
          markerUnits="strokeWidth"
          orient="auto-start-reverse"
          refX="0"
          refY="0"
        >
          <polyline
            // Inline, as React Flow draws its own: its arrowhead rule would win over a class.
            style={{ stroke: 'var(--edge-taken)', fill: 'var(--edge-taken)', strokeWidth: 1 }}
            strokeLinecap="round"
            strokeLinejoin="round"
            points="-5,-4 0,0 -5,4 -5,-4"
          />
        </marker>
      </defs>
    </svg>
  );
}
