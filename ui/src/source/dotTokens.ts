/**
 * A tokenizer for Graphviz DOT, line by line, for highlighting in the source view: comments
 * (`//`, `#` lines, `/* *\/` across lines), quoted strings with escapes, keywords, edge
 * operators, attribute keys (an identifier before `=`), numbers and punctuation. It only
 * colours text; the Rust parser remains the judge of what is valid.
 */

/** What a run of characters is. */
export type DotToken = 'comment' | 'string' | 'keyword' | 'operator' | 'attribute' | 'number' | 'punctuation' | 'name' | null;

/** The state carried from one line to the next: inside a block comment or a string. */
export type DotState = { inBlockComment: boolean; inString: boolean };

export function startState(): DotState {
  return { inBlockComment: false, inString: false };
}

const KEYWORDS = new Set(['strict', 'graph', 'digraph', 'node', 'edge', 'subgraph']);

/** The minimal reader the tokenizer needs (CodeMirror's StringStream provides it). */
export interface CharStream {
  sol(): boolean;
  eol(): boolean;
  peek(): string | undefined;
  next(): string | void;
  match(pattern: RegExp | string, consume?: boolean): unknown;
  skipToEnd(): void;
  eatSpace(): boolean;
}

function readString(stream: CharStream, state: DotState): DotToken {
  while (!stream.eol()) {
    const ch = stream.next();
    if (ch === '\\') {
      stream.next();
    } else if (ch === '"') {
      state.inString = false;
      return 'string';
    }
  }
  state.inString = true; // continues on the next line
  return 'string';
}

function readBlockComment(stream: CharStream, state: DotState): DotToken {
  while (!stream.eol()) {
    if (stream.match('*/')) {
      state.inBlockComment = false;
      return 'comment';
    }
    stream.next();
  }
  state.inBlockComment = true;
  return 'comment';
}

/** Reads one token from `stream` and says what it is. */
export function dotToken(stream: CharStream, state: DotState): DotToken {
  if (state.inBlockComment) return readBlockComment(stream, state);
  if (state.inString) return readString(stream, state);
  if (stream.eatSpace()) return null;
  if (stream.match('//') || (stream.sol() && stream.peek() === '#')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) return readBlockComment(stream, state);
  if (stream.peek() === '"') {
    stream.next();
    return readString(stream, state);
  }
  if (stream.match('->') || stream.match('--')) return 'operator';
  if (stream.match(/^-?(\d+\.?\d*|\.\d+)/)) return 'number';
  const word = stream.match(/^[A-Za-z_\u0080-\uffff][A-Za-z0-9_.\u0080-\uffff]*/);
  if (word) {
    const text = (word as RegExpMatchArray)[0];
    if (KEYWORDS.has(text.toLowerCase())) return 'keyword';
    return stream.match(/^\s*=/, false) ? 'attribute' : 'name';
  }
  stream.next();
  return 'punctuation';
}
