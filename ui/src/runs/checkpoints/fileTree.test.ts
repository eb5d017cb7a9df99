import { describe, expect, it } from 'vitest';
import type { TreeFile } from '../../generated/TreeFile';
import { buildFileTree, parentFolders, type FileTreeNode } from './fileTree';

const file = (path: string, size = 1): TreeFile => ({ path, size, kind: 'file' });

/** The tree as indented lines, for readable expectations. */
function outline(nodes: FileTreeNode[], depth = 0): string[] {
  return nodes.flatMap((n) =>
    n.kind === 'folder'
      ? [`${'  '.repeat(depth)}${n.name}/ (${n.fileCount})`, ...outline(n.children, depth + 1)]
      : [`${'  '.repeat(depth)}${n.name}`],
  );
}

describe('buildFileTree', () => {
  it('nests paths into folders, folders first, names in natural order', () => {
    const tree = buildFileTree([
      file('README.md'),
      file('src/main.rs'),
      file('src/lib/b.rs'),
      file('src/lib/a.rs'),
      file('notes10.txt'),
      file('notes9.txt'),
      file('docs/guide.md'),
    ]);
    expect(outline(tree)).toEqual([
      'docs/ (1)',
      '  guide.md',
      'src/ (3)',
      '  lib/ (2)',
      '    a.rs',
      '    b.rs',
      '  main.rs',
      'notes9.txt',
      'notes10.txt',
      'README.md',
    ]);
  });

  it('keeps each file and its full path', () => {
    const tree = buildFileTree([{ path: 'bin/run', size: 42, kind: 'executable' }]);
    const bin = tree[0];
    expect(bin).toMatchObject({ kind: 'folder', path: 'bin' });
    if (bin?.kind !== 'folder') throw new Error('expected a folder');
    expect(bin.children[0]).toEqual({
      kind: 'file',
      name: 'run',
      path: 'bin/run',
      file: { path: 'bin/run', size: 42, kind: 'executable' },
    });
  });

  it('is empty for no files', () => {
    expect(buildFileTree([])).toEqual([]);
  });
});

describe('parentFolders', () => {
  it('lists the folders down to a file', () => {
    expect(parentFolders('a/b/c.txt')).toEqual(['a', 'a/b']);
    expect(parentFolders('top.txt')).toEqual([]);
  });
});
