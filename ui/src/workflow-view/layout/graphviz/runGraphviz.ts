import type { Format, Graphviz } from '@hpcc-js/wasm-graphviz';
import { readGraphvizJson, type GraphvizPlacement } from './graphvizJson';

/**
 * Graphviz's JSON output without drawing instructions (`-Tjson0`): positions and sizes only,
 * a fifth of `json`. The package's `Format` type does not list it, though its Graphviz has it.
 */
const JSON_WITHOUT_DRAWING = 'json0' as Format;

/** Runs `dot` on `dotText` in a loaded Graphviz and reads where it put everything. */
export function runGraphviz(graphviz: Graphviz, dotText: string): GraphvizPlacement {
  return readGraphvizJson(JSON.parse(graphviz.layout(dotText, JSON_WITHOUT_DRAWING, 'dot')) as unknown);
}
