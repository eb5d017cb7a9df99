import type { Diagnostic } from '../generated/Diagnostic';
import { edgeId, type CanvasSelection } from '../workflow-view/flow/elementIds';

/**
 * The canvas element a diagnostic is about: its edge when it names one, else its node,
 * else null (a file-level finding). Elements missing from the canvas give null too.
 */
export function diagnosticTarget(
  d: Diagnostic,
  exists: (selection: NonNullable<CanvasSelection>) => boolean = () => true,
): CanvasSelection {
  const candidates: NonNullable<CanvasSelection>[] = [];
  if (d.edge !== null) candidates.push({ type: 'edge', id: edgeId(d.edge) });
  if (d.node !== null) candidates.push({ type: 'node', id: d.node });
  return candidates.find(exists) ?? null;
}
