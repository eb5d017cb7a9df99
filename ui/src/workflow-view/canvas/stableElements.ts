/** What was drawn for one element last time, and from what. */
export type DrawnElement<S, D> = { source: S; flags: string; drawn: D };

/**
 * Maps canvas elements to what is drawn, keeping last time's object for every element whose
 * source object and flags (selection, draggability) are unchanged, so the memoised canvas
 * redraws only what changed. `cache` is updated in place and forgets removed elements.
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
  return out;
}
