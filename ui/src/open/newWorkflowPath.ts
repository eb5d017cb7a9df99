/**
 * Where a new workflow goes: a name typed by the person, put in the workspace folder when it
 * is not a full path already, with `.dot` added unless it already ends in a workflow extension
 * (`.dot` or Fabro's `.fabro`, from the generated list).
 */

import { WORKFLOW_EXTENSIONS } from '../generated/workflowExtensions';

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

const DEFAULT_EXTENSION = WORKFLOW_EXTENSIONS[0];

/** `name` ending in its workflow extension written in lower case, or in `.dot` when it has none. */
function withWorkflowExtension(name: string): string {
  const lower = name.toLowerCase();
  for (const extension of WORKFLOW_EXTENSIONS) {
    const suffix = `.${extension}`;
    if (lower.endsWith(suffix)) return `${name.slice(0, -suffix.length)}${suffix}`;
  }
  return `${name}.${DEFAULT_EXTENSION}`;
}

/** The workflow file `typed` names: in `workspaceDir` unless it is a full path. */
export function newWorkflowPath(typed: string, workspaceDir: string | null): NewWorkflowPath {
  const name = typed.trim();
  if (name === '') return { ok: false, message: 'Enter a name for the new file.' };
  if (/[\\/]$/.test(name)) return { ok: false, message: 'That is a folder: add a file name after it.' };
  if (name.startsWith('~')) {
    return { ok: false, message: 'Write the folder out in full: `~` is not expanded.' };
  }
  const withExtension = withWorkflowExtension(name);
  const fileName = withExtension.split(/[\\/]/).at(-1) ?? '';
  if (WORKFLOW_EXTENSIONS.some((extension) => fileName === `.${extension}`)) {
    return { ok: false, message: 'Enter a name for the new file.' };
  }
  if (isAbsolute(withExtension)) return { ok: true, path: withExtension };
  if (workspaceDir === null) {
    return { ok: false, message: 'There is no workspace folder: enter the full path of the new file.' };
  }
  return { ok: true, path: join(workspaceDir, withExtension) };
}

/** The file name offered for a template before the person types one. */
export function defaultFileName(template: string): string {
  const base = template === 'blank' || template === '' ? 'workflow' : template;
  return `${base}.${DEFAULT_EXTENSION}`;
}
