import type { RunEvent } from '../../api/runEvent';
import type { EdgeReason } from '../../generated/EdgeReason';

/** Where a stage visit sent the run, and why. */
export type RoutingDecision = { to: string; label: string | null; condition: string | null; reason: EdgeReason };

const REASON_TEXT: Record<EdgeReason, string> = {
  condition: 'its condition held',
  label: 'it matched the preferred label',
  suggestion: 'its target was suggested',
  weight: 'it is the heaviest unconditional edge (taken whatever the outcome, failure included)',
  retry_target: 'no edge was chosen after the failure, so failure routing (retry_target) sent the run there',
  goal_gate: 'an unmet goal gate sent the run back',
  fan_in: 'the parallel branches continue at their fan-in',
};

/** A person's reading of an `edge.selected` reason. */
export function describeReason(reason: EdgeReason): string {
  return REASON_TEXT[reason];
}

/**
 * The index of the first of `events` (in `seq` order, so in time order) at or after `since`
 * (epoch ms): a binary search, so a stage deep in a 100,000-event run is found at once.
 */
export function firstEventSince(events: readonly RunEvent[], since: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const event = events[middle];
    if (event !== undefined && Date.parse(event.ts) < since) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The `edge.selected` that followed a stage visit: the first one from `node` at or after
 * the visit started (and before the node's next visit started).
 */
export function routingDecision(events: readonly RunEvent[], node: string, startedAt: string): RoutingDecision | null {
  let started = false;
  for (let i = firstEventSince(events, Date.parse(startedAt)); i < events.length; i += 1) {
    const event = events[i];
    if (event === undefined) break;
    if (!started) {
      if (event.node_id === node && event.event === 'stage.started') started = true;
      continue;
    }
    if (event.event === 'stage.started' && event.node_id === node && event.properties.attempt === 1) return null;
    if (event.event === 'edge.selected' && event.properties.from === node) {
      const { to, label, condition, reason } = event.properties;
      return { to, label, condition, reason };
    }
  }
  return null;
}
