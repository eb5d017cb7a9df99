/**
 * Diagnostic spans from the Rust side count UTF-8 bytes; the editor counts UTF-16 code units.
 * These convert one to the other so inline markers land on the right characters in text
 * with non-ASCII characters.
 */

/** The UTF-16 offset in `text` of UTF-8 byte offset `byte` (clamped to the text). */
export function utf16Offset(text: string, byte: number): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byte) {
    const code = text.codePointAt(index) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}
