import type { TreeFile } from '../../generated/TreeFile';

/** A folder of the tree, with how many files it holds at any depth. */
export interface FileTreeFolder {
  kind: 'folder';
  name: string;
  path: string;
  fileCount: number;
  children: FileTreeNode[];
}

/** A file of the tree. */
export interface FileTreeFile {
  kind: 'file';
  name: string;
  path: string;
  file: TreeFile;
}

/** A folder or a file. */
export type FileTreeNode = FileTreeFolder | FileTreeFile;

const byName = (a: FileTreeNode, b: FileTreeNode) => a.name.localeCompare(b.name, 'en', { numeric: true });

function sortTree(nodes: FileTreeNode[]): FileTreeNode[] {
  const folders = nodes.filter((n): n is FileTreeFolder => n.kind === 'folder').sort(byName);
  const files = nodes.filter((n) => n.kind === 'file').sort(byName);
  for (const folder of folders) folder.children = sortTree(folder.children);
  return [...folders, ...files];
}

/**
 * The files of a checkpoint (paths with `/` separators) as a tree: folders first, then
 * files, each by name (numbers in names compared as numbers).
 */
export function buildFileTree(files: TreeFile[]): FileTreeNode[] {
  const root: FileTreeFolder = { kind: 'folder', name: '', path: '', fileCount: 0, children: [] };
  for (const file of files) {
    const parts = file.path.split('/').filter((p) => p !== '');
    const name = parts.pop();
    if (name === undefined) continue;
    let folder = root;
    folder.fileCount++;
    for (const part of parts) {
      const path = folder.path === '' ? part : `${folder.path}/${part}`;
      let next = folder.children.find((n): n is FileTreeFolder => n.kind === 'folder' && n.name === part);
      if (next === undefined) {
        next = { kind: 'folder', name: part, path, fileCount: 0, children: [] };
        folder.children.push(next);
      }
      next.fileCount++;
      folder = next;
    }
    folder.children.push({ kind: 'file', name, path: file.path, file });
  }
  return sortTree(root.children);
}

/** The folders that hold `path` (`a/b/c.txt` → `a`, `a/b`), to open a tree down to a file. */
export function parentFolders(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
