/** Labels typed as `key=value` pairs separated by commas or new lines. */
export type ParsedLabels = { ok: true; labels: Record<string, string> } | { ok: false; error: string };

/** Parses typed labels; an entry without `=` or with an empty key is an error naming it. */
export function parseLabels(text: string): ParsedLabels {
  const labels: Record<string, string> = {};
  for (const entry of text.split(/[,\n]/)) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) return { ok: false, error: `“${trimmed}” is not key=value` };
    labels[trimmed.slice(0, eq).trim()] = trimmed.slice(eq + 1).trim();
  }
  return { ok: true, labels };
}
