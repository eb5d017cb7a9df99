import { splitCodeSpans } from './codeSpans';

/** Message text with its backticked parts set as code. */
export function MessageText({ text }: { text: string }) {
  return (
    <>
      {splitCodeSpans(text).map((part, i) =>
        part.code ? <code key={i}>{part.text}</code> : <span key={i}>{part.text}</span>,
      )}
    </>
  );
}
