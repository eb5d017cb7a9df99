import { describe, expect, it } from 'vitest';
import { childElements, decodeEntities, parseXml, textContent, XmlSyntaxError } from './xmlElements';

describe('parseXml', () => {
  it('reads elements, attributes and text, skipping the prolog and comments', () => {
    const root = parseXml(
      '\uFEFF<?xml version="1.0"?>\n<!-- made by a tool -->\n<a x="1" y=\'two\'>hi<b/><!-- c --><c z="3">there</c></a>\n',
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1', y: 'two' });
    expect(childElements(root).map((e) => e.name)).toEqual(['b', 'c']);
    expect(childElements(root, 'c')[0]?.attributes.z).toBe('3');
    expect(textContent(root)).toBe('hithere');
  });

  it('decodes entities in text and attributes and keeps CDATA as written', () => {
    const root = parseXml('<a m="&lt;&quot;&#65;&#x42;&apos;&gt;">1 &amp; 2<![CDATA[ <raw> &amp; ]]>&#10;end</a>');
    expect(root.attributes.m).toBe(`<"AB'>`);
    expect(root.children).toEqual(['1 & 2 <raw> &amp; \nend']);
  });

  it('normalises raw line breaks in attribute values but keeps escaped ones', () => {
    expect(parseXml('<a m="one\ntwo&#10;three"/>').attributes.m).toBe('one two\nthree');
  });

  it('drops namespace prefixes', () => {
    const root = parseXml('<j:testsuite xmlns:j="urn:x" j:name="n"><j:testcase/></j:testsuite>');
    expect(root.name).toBe('testsuite');
    expect(root.attributes.name).toBe('n');
    expect(childElements(root, 'testcase')).toHaveLength(1);
  });

  it('skips a DOCTYPE and never expands its entities', () => {
    const root = parseXml('<!DOCTYPE a [ <!ENTITY e "boom"> ]><a>&e;</a>');
    expect(root.children).toEqual(['&e;']);
  });

  it('reads deep nesting without recursion', () => {
    const depth = 50_000;
    const root = parseXml(`${'<n>'.repeat(depth)}x${'</n>'.repeat(depth)}`);
    expect(textContent(root)).toBe('x');
  });

  it.each([
    ['<a><b></a>', '</a> closes <b>'],
    ['<a>', 'never closed'],
    ['<a/><b/>', 'content after the root element'],
    ['text', 'text outside the root element'],
    ['<a x=1/>', 'expected a quoted value'],
    ['<a><!-- open', 'unterminated comment'],
    ['', 'no root element'],
  ])('refuses %j', (text, message) => {
    expect(() => parseXml(text)).toThrow(XmlSyntaxError);
    expect(() => parseXml(text)).toThrow(message);
  });
});

describe('decodeEntities', () => {
  it('keeps unknown entities and replaces invalid code points', () => {
    expect(decodeEntities('&nbsp; &#0; &#xD800; &#128512;')).toBe('&nbsp; \uFFFD \uFFFD 😀');
  });
});
