/**
 * Keeping the source view's text in step with the document without fighting the person
 * typing in it. The document lags the editor: typed text is checked after a pause, so the
 * document can arrive with text the person has already typed past. Such an echo is
 * ignored; any other new document (a canvas edit, undo, a reload from disk) replaces only
 * the part that differs, so the cursor and scroll position stay where they were.
 */

/** One replacement turning one text into another. */
export type TextChange = { from: number; to: number; insert: string };

/** The smallest single replacement that turns `before` into `after`; null when equal. */
export function minimalChange(before: string, after: string): TextChange | null {
  if (before === after) return null;
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < shorter - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  ) {
    end++;
  }
  // Never split a surrogate pair.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** What the view should do with a new document `source` while it shows `shown`. */
export type SyncAction = { kind: 'keep' } | { kind: 'replace'; change: TextChange };

/**
 * `typed` are the texts typing produced since the last document from elsewhere (oldest
 * first). The document equal to one of them is the person's own typing coming back.
 */
export function syncAction(shown: string, source: string, typed: readonly string[]): SyncAction {
  if (shown === source || typed.includes(source)) return { kind: 'keep' };
  const change = minimalChange(shown, source);
  return change === null ? { kind: 'keep' } : { kind: 'replace', change };
}
