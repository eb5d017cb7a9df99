import type { FileTreeNode } from './fileTree';
import { formatSize } from './format';

/** Folders and files of a checkpoint as nested lists; folders open and close on click. */
export function FileTreeList({
  nodes,
  openFolders,
  selectedPath,
  onToggle,
  onSelect,
  depth = 0,
}: {
  nodes: FileTreeNode[];
  openFolders: ReadonlySet<string>;
  selectedPath: string | null;
  onToggle: (folder: string) => void;
  onSelect: (path: string) => void;
  depth?: number;
}) {
  return (
    <ul className="file-tree">
      {nodes.map((node) => {
        const indent = { paddingLeft: `${8 + depth * 14}px` };
        if (node.kind === 'folder') {
          const open = openFolders.has(node.path);
          return (
            <li key={node.path}>
              <button
                type="button"
                className="file-tree__item is-folder"
                style={indent}
                aria-expanded={open}
                onClick={() => onToggle(node.path)}
              >
                <span className="file-tree__chevron" aria-hidden="true">
                  {open ? '▾' : '▸'}
                </span>
                <span className="file-tree__name">{node.name}/</span>
                <span className="file-tree__size">{node.fileCount}</span>
              </button>
              {open ? (
                <FileTreeList
                  nodes={node.children}
                  openFolders={openFolders}
                  selectedPath={selectedPath}
                  onToggle={onToggle}
                  onSelect={onSelect}
                  depth={depth + 1}
                />
              ) : null}
            </li>
          );
        }
        const selected = node.path === selectedPath;
        return (
          <li key={node.path}>
            <button
              type="button"
              className={selected ? 'file-tree__item is-file is-selected' : 'file-tree__item is-file'}
              style={indent}
              aria-current={selected ? 'true' : undefined}
              data-testid="checkpoint-file"
              data-path={node.path}
              onClick={() => onSelect(node.path)}
            >
              <span className="file-tree__chevron" aria-hidden="true" />
              <span className="file-tree__name">{node.name}</span>
              <span className="file-tree__size">{formatSize(node.file.size)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
