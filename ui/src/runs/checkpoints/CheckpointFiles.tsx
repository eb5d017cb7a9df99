import { useMemo, useState } from 'react';
import { loadCheckpointFiles } from './apiCalls';
import { buildFileTree, parentFolders } from './fileTree';
import { FileTreeList } from './FileTreeList';
import { FileViewer } from './FileViewer';
import { useApiRead } from '../../api/useApiRead';
import './checkpoint-files.css';
import { ErrorBanner } from '../../app/ErrorBanner';

/**
 * The files at a checkpoint: a folder tree on the left, the chosen file on the right. The
 * chosen path stays chosen when another checkpoint is selected, to compare it across them.
 */
export function CheckpointFiles({ runId, sha }: { runId: string; sha: string }) {
  const result = useApiRead({ run_id: runId, at: sha }, loadCheckpointFiles);
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const [openFolders, setOpenFolders] = useState<ReadonlySet<string>>(new Set());
  const files = result.state === 'ready' ? result.value : null;
  const tree = useMemo(() => buildFileTree(files ?? []), [files]);
  const selected = files?.find((f) => f.path === selectedPath) ?? null;

  const toggle = (folder: string) =>
    setOpenFolders((open) => {
      const next = new Set(open);
      if (!next.delete(folder)) next.add(folder);
      return next;
    });
  const select = (path: string) => {
    setSelectedPath(path);
    setOpenFolders((open) => new Set([...open, ...parentFolders(path)]));
  };

  if (result.state === 'loading') {
    return (
      <p className="checkpoint-pane__note" role="status">
        <span className="spinner" aria-hidden="true" /> Listing the files…
      </p>
    );
  }
  if (result.state === 'failed') {
    return (
      <ErrorBanner title="Could not list the files at this checkpoint" message={result.error.message} />
    );
  }
  if (result.value.length === 0) {
    return <p className="checkpoint-pane__note">No files at this checkpoint.</p>;
  }
  return (
    <div className="checkpoint-files" data-testid="checkpoint-files">
      <nav className="checkpoint-files__tree" aria-label={`Files (${result.value.length})`}>
        <FileTreeList
          nodes={tree}
          openFolders={openFolders}
          selectedPath={selected?.path ?? null}
          onToggle={toggle}
          onSelect={select}
        />
      </nav>
      <div className="checkpoint-files__viewer">
        {selected !== null ? (
          <FileViewer runId={runId} sha={sha} file={selected} />
        ) : (
          <p className="checkpoint-pane__note">
            {selectedPath !== null ? (
              <>
                <code>{selectedPath}</code> is not in this checkpoint. Choose another file.
              </>
            ) : (
              `Choose one of the ${result.value.length} files to read it as it was here.`
            )}
          </p>
        )}
      </div>
    </div>
  );
}
