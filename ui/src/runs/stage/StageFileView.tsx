import { MarkdownView } from '../../markdown/MarkdownView';
import { LogView } from './LogView';
import { useStageFile } from './useStageFile';

/** How a stage file is shown. */
export type StageFileMode = 'markdown' | 'log';

/** One file of a stage folder, rendered as Markdown or a coloured log (diffs: `RunPatchView`). */
export function StageFileView({
  runId,
  stageFolder,
  name,
  mode,
  version,
  empty,
}: {
  runId: string;
  stageFolder: string;
  name: string;
  mode: StageFileMode;
  version: unknown;
  /** What to say when the stage has no such file. */
  empty: string;
}) {
  const file = useStageFile(runId, stageFolder, name, version);
  if (file.state === 'loading') {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Reading {name}…
      </p>
    );
  }
  if (file.state === 'missing') return <p className="muted stage-file__empty">{empty}</p>;
  if (file.state === 'failed') {
    return (
      <div className="banner is-error" role="alert">
        <strong>Could not read {name}</strong> <span>{file.message}</span>
      </div>
    );
  }
  if (file.text === '') return <p className="muted stage-file__empty">{name} is empty.</p>;
  if (mode === 'markdown') return <MarkdownView source={file.text} className="stage-file__markdown" />;
  return <LogView text={file.text} label={name} />;
}
