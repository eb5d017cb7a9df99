/** A run of message text, either plain or a `code` span. */
export interface MessagePart {
  text: string;
  code: boolean;
}

/**
 * Splits a diagnostic message on backticks so `node_id` and `digraph` can be shown as code.
 * An unmatched backtick is kept as plain text.
 */
export function splitCodeSpans(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  const pattern = /`([^`]+)`/g;
  let last = 0;
  for (let match = pattern.exec(message); match !== null; match = pattern.exec(message)) {
    if (match.index > last) parts.push({ text: message.slice(last, match.index), code: false });
    parts.push({ text: match[1] ?? '', code: true });
    last = match.index + match[0].length;
  }
  if (last < message.length) parts.push({ text: message.slice(last), code: false });
  return parts;
}
