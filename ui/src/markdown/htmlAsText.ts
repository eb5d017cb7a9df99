/**
 * A remark plugin that turns raw HTML in Markdown into plain text before anything renders
 * it: a `<script>` block becomes a paragraph that reads `<script>…`, an inline `<b>` stays
 * the characters `<b>`. So no HTML from a file or a model reply ever becomes markup, and
 * it still reads in place, laid out like the text around it.
 */

/** The parts of an mdast node this plugin looks at. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** Nodes whose children are blocks (an `html` child there is a block of HTML). */
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

function rewrite(node: MdNode): void {
  const children = node.children;
  if (children === undefined) return;
  const inBlocks = BLOCK_PARENTS.has(node.type);
  node.children = children.map((child) => {
    if (child.type !== 'html') {
      rewrite(child);
      return child;
    }
    const text: MdNode = { type: 'text', value: child.value ?? '' };
    return inBlocks ? { type: 'paragraph', children: [text] } : text;
  });
}

/** The plugin: `remarkPlugins={[remarkGfm, htmlAsText]}`. */
export function htmlAsText() {
  return (tree: MdNode) => rewrite(tree);
}
