/**
 * A small XML reader for test reports: elements, attributes, text, CDATA and the predefined
 * and numeric entities. Comments, processing instructions and a DOCTYPE are skipped; no
 * external entity is ever resolved. Nesting is followed with an explicit stack, so a deeply
 * nested file cannot exhaust the call stack.
 */

/** One element: its local name (any `prefix:` dropped), attributes and children in order. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}

/** A child of an element: an element or a run of text (CDATA included, entities decoded). */
export type XmlNode = XmlElement | string;

/** The text is not well-formed enough to read; `offset` is where reading stopped. */
export class XmlSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} (at character ${offset})`);
    this.name = 'XmlSyntaxError';
    this.offset = offset;
  }
}

interface OpenElement {
  name: string;
  qualifiedName: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /[^\s/>=<"'!?]+/y;
const SPACE = /\s*/y;

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

function codePointText(code: number): string {
  const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return valid ? String.fromCodePoint(code) : '\uFFFD';
}

/** Replaces `&lt;`, `&#10;`, `&#x41;` and the like; an unknown entity is kept as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x')) return codePointText(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return codePointText(parseInt(body.slice(1), 10));
    return PREDEFINED[body] ?? whole;
  });
}

function appendText(children: XmlNode[], text: string) {
  if (text === '') return;
  const last = children.length - 1;
  const previous = children[last];
  if (typeof previous === 'string') children[last] = previous + text;
  else children.push(text);
}

/** Reads `text` as one XML document and returns its root element; throws `XmlSyntaxError`. */
export function parseXml(text: string): XmlElement {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: OpenElement[] = [];
  const result: { root: XmlElement | null } = { root: null };

  const fail = (message: string, at = pos): never => {
    throw new XmlSyntaxError(message, at);
  };
  const skipPast = (terminator: string, what: string) => {
    const end = text.indexOf(terminator, pos);
    if (end < 0) fail(`unterminated ${what}`);
    pos = end + terminator.length;
  };
  const skipSpace = () => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    pos = SPACE.lastIndex;
  };
  const readName = (): string => {
    NAME.lastIndex = pos;
    const match = NAME.exec(text);
    if (match === null) return fail('expected a name');
    pos = NAME.lastIndex;
    return match[0];
  };
  const skipDoctype = () => {
    // `<!DOCTYPE root [ ...internal subset... ]>`: skipped whole, never interpreted.
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const c = text[i];
      if (c === '[') depth++;
      else if (c === ']') depth--;
      else if (c === '>' && depth <= 0) {
        pos = i + 1;
        return;
      }
    }
    fail('unterminated DOCTYPE');
  };
  const readAttributes = (): Record<string, string> => {
    const attributes: Record<string, string> = {};
    for (;;) {
      skipSpace();
      const c = text[pos];
      if (c === '>' || c === '/' || c === undefined) return attributes;
      const name = readName();
      skipSpace();
      if (text[pos] !== '=') fail(`expected = after the attribute ${name}`);
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") return fail(`expected a quoted value for ${name}`);
      const end = text.indexOf(quote, pos + 1);
      if (end < 0) fail(`unterminated value of ${name}`);
      const raw = text.slice(pos + 1, end);
      if (raw.includes('<')) fail(`< in the value of ${name}`, pos + 1);
      attributes[localName(name)] = decodeEntities(raw.replace(/[\t\n\r]/g, ' '));
      pos = end + 1;
    }
  };
  const close = (element: OpenElement) => {
    const done: XmlElement = { name: element.name, attributes: element.attributes, children: element.children };
    const parent = stack[stack.length - 1];
    if (parent === undefined) result.root = done;
    else parent.children.push(done);
  };

  while (pos < text.length) {
    const parent = stack[stack.length - 1];
    if (text.startsWith('<!--', pos)) {
      skipPast('-->', 'comment');
    } else if (text.startsWith('<?', pos)) {
      skipPast('?>', 'processing instruction');
    } else if (text.startsWith('<![CDATA[', pos)) {
      if (parent === undefined) return fail('CDATA outside the root element');
      const start = pos + '<![CDATA['.length;
      skipPast(']]>', 'CDATA section');
      appendText(parent.children, text.slice(start, pos - 3));
    } else if (text.startsWith('<!', pos)) {
      if (result.root !== null || parent !== undefined) fail('a declaration inside the document');
      skipDoctype();
    } else if (text.startsWith('</', pos)) {
      const at = pos;
      pos += 2;
      const name = readName();
      skipSpace();
      if (text[pos] !== '>') fail(`expected > to close </${name}`);
      pos++;
      const open = stack.pop();
      if (open === undefined) return fail(`</${name}> closes nothing`, at);
      if (open.qualifiedName !== name) fail(`</${name}> closes <${open.qualifiedName}>`, at);
      close(open);
    } else if (text[pos] === '<') {
      if (result.root !== null) fail('content after the root element');
      pos++;
      const qualifiedName = readName();
      const element: OpenElement = { name: localName(qualifiedName), qualifiedName, attributes: readAttributes(), children: [] };
      if (text.startsWith('/>', pos)) {
        pos += 2;
        close(element);
      } else if (text[pos] === '>') {
        pos++;
        stack.push(element);
      } else {
        fail(`unterminated <${qualifiedName}>`);
      }
    } else {
      const end = text.indexOf('<', pos);
      const stop = end < 0 ? text.length : end;
      const chunk = text.slice(pos, stop);
      if (parent === undefined) {
        if (chunk.trim() !== '') fail('text outside the root element');
      } else {
        appendText(parent.children, decodeEntities(chunk));
      }
      pos = stop;
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed !== undefined) fail(`<${unclosed.qualifiedName}> is never closed`);
  return result.root ?? fail('no root element');
}

/** The element children of `element` named `name` (all of them when `name` is omitted). */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name),
  );
}

/** All text inside `element`, its descendants' included, in document order. */
export function textContent(element: XmlElement): string {
  let out = '';
  const pending: XmlNode[] = [element];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node === 'string') out += node;
    else for (const child of [...node.children].reverse()) pending.push(child);
  }
  return out;
}
