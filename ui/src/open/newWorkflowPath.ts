/**
 * Where a new workflow goes: a name typed by the person, put in the workspace folder when it
 * is not a full path already, with `.dot` added when missing.
 */

export type NewWorkflowPath = { ok: true; path: string } | { ok: false; message: string };

const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

function isAbsolute(path: string): boolean {
  return ABSOLUTE.test(path);
}

/** `dir` joined with `name`, with the separator `dir` already uses. */
function join(dir: string, name: string): string {
  const windows = dir.includes('\\') && !dir.includes('/');
  const separator = windows ? '\\' : '/';
  const base = dir.replace(/[\\/]+$/, '');
  const relative = name.replace(/^(?:\.[\\/])+/, '');
  return `${base}${separator}${windows ? relative.replace(/\//g, '\\') : relative}`;
}

/** The `.dot` file `typed` names: in `workspaceDir` unless it is a full path. */
export function newWorkflowPath(typed: string, workspaceDir: string | null): NewWorkflowPath {
  const name = typed.trim();
  if (name === '') return { ok: false, message: 'Enter a name for the new file.' };
  if (/[\\/]$/.test(name)) return { ok: false, message: 'That is a folder: add a file name after it.' };
  if (name.startsWith('~')) {
    return { ok: false, message: 'Write the folder out in full: `~` is not expanded.' };
  }
  const withExtension = /\.dot$/i.test(name) ? `${name.slice(0, -4)}.dot` : `${name}.dot`;
  const fileName = withExtension.split(/[\\/]/).at(-1) ?? '';
  if (fileName === '.dot') return { ok: false, message: 'Enter a name for the new file.' };
  if (isAbsolute(withExtension)) return { ok: true, path: withExtension };
  if (workspaceDir === null) {
    return { ok: false, message: 'There is no workspace folder: enter the full path of the new file.' };
  }
  return { ok: true, path: join(workspaceDir, withExtension) };
}

/** The file name offered for a template before the person types one. */
export function defaultFileName(template: string): string {
  return template === 'blank' || template === '' ? 'workflow.dot' : `${template}.dot`;
}
