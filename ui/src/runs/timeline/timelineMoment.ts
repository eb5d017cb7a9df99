import type { StageState } from '../../generated/StageState';
import type { TimelineBar, TimelineLayout } from './timelineLayout';

/** Where a stage visit stood at one moment. */
export type BarPhase = 'pending' | 'running' | 'finished';

/** Whether a bar had not started, was running or had finished at `t` (ms since the run's start). */
export function barPhaseAt(bar: TimelineBar, t: number): BarPhase {
  if (!bar.open && bar.end <= t) return 'finished';
  if (t < bar.start) return 'pending';
  return 'running';
}

/** The stage visits running and finished at `t`, each in start order. */
export function stagesAt(layout: TimelineLayout, t: number): { running: TimelineBar[]; finished: TimelineBar[] } {
  const running: TimelineBar[] = [];
  const finished: TimelineBar[] = [];
  for (const bar of layout.bars) {
    const phase = barPhaseAt(bar, t);
    if (phase === 'running') running.push(bar);
    else if (phase === 'finished') finished.push(bar);
  }
  return { running, finished };
}

/** A node as it stood at one moment: its latest visit that had started, and that visit's state. */
export interface NodeMoment {
  bar: TimelineBar;
  /** `running` until the visit ended, then its final status. */
  state: StageState;
}

/**
 * Every node that had started by `t`, keyed by node id, with its latest visit then: what
 * the graph should show when the scrubber is at `t`.
 */
export function nodeStatesAt(layout: TimelineLayout, t: number): Map<string, NodeMoment> {
  const nodes = new Map<string, NodeMoment>();
  for (const bar of layout.bars) {
    const phase = barPhaseAt(bar, t);
    if (phase === 'pending') continue;
    const previous = nodes.get(bar.stage.node_id);
    if (previous !== undefined && previous.bar.stage.visit > bar.stage.visit) continue;
    nodes.set(bar.stage.node_id, { bar, state: phase === 'running' ? 'running' : bar.stage.status });
  }
  return nodes;
}
