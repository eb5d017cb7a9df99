import type { StageState } from '../../generated/StageState';
import { formatDuration } from './timeAxis';
import type { TimelineBar } from './timelineLayout';

/** A status in words: `partial_success` → `partial success`. */
export function statusWords(status: StageState): string {
  return status.replace(/_/g, ' ');
}

/** How long the visit took (or has taken so far). */
export function barDurationMs(bar: TimelineBar): number {
  return bar.open || bar.stage.duration_ms === null ? bar.end - bar.start : bar.stage.duration_ms;
}

/** The node id, with `#visit` after the first visit. */
export function barName(bar: TimelineBar): string {
  const { node_id, visit } = bar.stage;
  return visit > 1 ? `${node_id} #${visit}` : node_id;
}

/** Total time spent waiting for a person during the visit. */
export function waitedMs(bar: TimelineBar): number {
  return bar.waits.reduce((sum, wait) => sum + (wait.end - wait.start), 0);
}

/** What a screen reader says for a bar: `unit visit 2, fail, 1.2s, 1 retry`. */
export function barAriaLabel(bar: TimelineBar): string {
  const { node_id, visit, status, retries } = bar.stage;
  const name = visit > 1 ? `${node_id} visit ${visit}` : node_id;
  const parts = [name, statusWords(status), formatDuration(barDurationMs(bar))];
  if (retries > 0) parts.push(retries === 1 ? '1 retry' : `${retries} retries`);
  if (bar.waits.length > 0) parts.push(`waited ${formatDuration(waitedMs(bar))} for a person`);
  return parts.join(', ');
}

/** The bar's tooltip: kind, status, attempts and why it failed or retried. */
export function barTooltip(bar: TimelineBar): string {
  const { stage } = bar;
  const lines = [
    `${barName(bar)} (${stage.kind})`,
    `${statusWords(stage.status)} · ${formatDuration(barDurationMs(bar))}${bar.live ? ' so far' : ''}`,
  ];
  if (stage.attempts > 1 || stage.retries > 0) lines.push(`attempts: ${stage.attempts}, retries: ${stage.retries}`);
  if (stage.last_retry_reason !== null) lines.push(`last retry: ${stage.last_retry_reason}`);
  if (stage.failure_reason !== null) {
    const failureClass = stage.failure_class === null ? '' : ` (${stage.failure_class})`;
    lines.push(`failed${failureClass}: ${stage.failure_reason}`);
  }
  for (const { wait, open } of bar.waits) {
    lines.push(`waited for a person: ${wait.question}${open ? ' (still waiting)' : ''}`);
  }
  if (stage.notes !== null) lines.push(stage.notes);
  return lines.join('\n');
}

/** What a cluster of visits says (label and tooltip): `62 stages, 31 failed (test, fix)`. */
export function clusterDescription(bars: readonly TimelineBar[], failed: number): string {
  const nodes = [...new Set(bars.map((bar) => bar.stage.node_id))];
  const named = nodes.length <= 3 ? nodes.join(', ') : `${nodes.slice(0, 3).join(', ')}, …`;
  const failures = failed > 0 ? `, ${failed} failed` : '';
  return `${bars.length} stages${failures} (${named})`;
}
