/** What was drawn for one element last time, and from what. */
export type DrawnElement<S, D> = { source: S; flags: string; drawn: D };

/** What each cache handed out last. */
const lastOut = new WeakMap<object, readonly unknown[]>();

/**
 * Maps canvas elements to what is drawn, keeping last time's object for every element whose
 * source object and flags (selection, draggability) are unchanged, so the memoised canvas
 * redraws only what changed. When no element changed, last time's array itself is returned:
 * React Flow goes over every element whenever it gets a new array (on a 20,000-edge graph,
 * half a second to select a node). `cache` is updated in place and forgets removed elements.
 */
export function stableElements<S extends { id: string }, D>(
  sources: readonly S[],
  cache: Map<string, DrawnElement<S, D>>,
  flagsOf: (source: S) => string,
  draw: (source: S) => D,
): D[] {
  const seen = new Set<string>();
  const out = sources.map((source) => {
    seen.add(source.id);
    const flags = flagsOf(source);
    const before = cache.get(source.id);
    if (before !== undefined && before.source === source && before.flags === flags) return before.drawn;
    const drawn = draw(source);
    cache.set(source.id, { source, flags, drawn });
    return drawn;
  });
  for (const id of cache.keys()) if (!seen.has(id)) cache.delete(id);
  const last = lastOut.get(cache) as D[] | undefined;
  if (last !== undefined && last.length === out.length && out.every((drawn, i) => drawn === last[i])) return last;
  lastOut.set(cache, out);
  return out;
}
