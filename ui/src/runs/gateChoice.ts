/**
 * What a gate's choice button says. A choice's label is its edge's label as written, and the
 * engine reads an accelerator key out of it (`[A] Approve`, `A) Approve`, `A - Approve`);
 * the button shows that key in its own box, so the text beside it drops the prefix.
 */

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** The label without its accelerator prefix; the label as it is when it has none. */
export function choiceText(label: string): string {
  const text = label.trimStart();
  const bracketed = /^\[([\p{L}\p{N}]{1,3})\](\s|$)/u.exec(text);
  if (bracketed !== null) return text.slice(bracketed[0].length).trim() || label.trim();
  const first = [...text][0];
  if (first !== undefined && LETTER_OR_DIGIT.test(first)) {
    const rest = text.slice(first.length);
    if (/^\)(\s|$)/.test(rest)) return rest.slice(1).trim() || label.trim();
    if (rest.startsWith(' - ')) return rest.slice(3).trim() || label.trim();
  }
  return label.trim();
}
