import { unquotePath } from './unquotePath';

/** What a line of a hunk is: added, deleted, unchanged, or a note (`\ No newline…`). */
export type DiffLineKind = 'add' | 'del' | 'context' | 'meta';

/** One line of a hunk, without its `+`/`-`/` ` prefix; numbers are null where it has none. */
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldLine: number | null;
  newLine: number | null;
}

/** One `@@ -a,b +c,d @@` block. */
export interface DiffHunk {
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The text after the second `@@` (often the enclosing function). */
  section: string;
  lines: DiffLine[];
}

/** How a file changed. */
export type DiffFileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

/** One file of a patch. */
export interface DiffFile {
  /** Path before (null for a new file). */
  oldPath: string | null;
  /** Path after (null for a deleted file). */
  newPath: string | null;
  /** The path to show: the new one, or the old one when the file was deleted. */
  path: string;
  status: DiffFileStatus;
  binary: boolean;
  /** `old mode`/`new mode`, when the mode changed. */
  modeChange: { from: string; to: string } | null;
  /** Extended header lines as they were (`index …`, `similarity index 92%`, …). */
  headers: string[];
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
  /** Lines in all hunks (what rendering the file costs). */
  lineCount: number;
}

/** A parsed patch: its files, and any text before the first one. */
export interface ParsedPatch {
  preamble: string[];
  files: DiffFile[];
}

const HUNK_HEADER = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+ ?(.*)$/;
const NO_NEWLINE = '\\';

function emptyFile(oldPath: string | null, newPath: string | null): DiffFile {
  return {
    oldPath,
    newPath,
    path: newPath ?? oldPath ?? '',
    status: 'modified',
    binary: false,
    modeChange: null,
    headers: [],
    hunks: [],
    additions: 0,
    deletions: 0,
    lineCount: 0,
  };
}

/** `a/x` → `x`; `/dev/null` → null; quoted names unquoted; a trailing tab part dropped. */
function headerPath(raw: string, prefix: 'a/' | 'b/'): string | null {
  const tab = raw.startsWith('"') ? -1 : raw.indexOf('\t');
  const name = unquotePath(tab >= 0 ? raw.slice(0, tab) : raw.trimEnd());
  if (name === '/dev/null') return null;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** The two paths of `diff --git a/X b/Y` (best effort: the `---`/`+++` lines win later). */
function gitHeaderPaths(rest: string): [string | null, string | null] {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = rest.slice(0, end + 1);
    const second = rest.slice(end + 1).trimStart();
    return [headerPath(first, 'a/'), headerPath(second, 'b/')];
  }
  const candidates: number[] = [];
  for (let i = rest.indexOf(' b/'); i >= 0; i = rest.indexOf(' b/', i + 1)) candidates.push(i);
  if (candidates.length === 0) {
    const quoted = rest.indexOf(' "');
    if (quoted < 0) return [null, null];
    return [headerPath(rest.slice(0, quoted), 'a/'), headerPath(rest.slice(quoted + 1), 'b/')];
  }
  // With spaces in names several splits are possible; the one naming the same file twice wins.
  const split =
    candidates.find((i) => rest.slice(0, i).slice(2) === rest.slice(i + 3)) ?? candidates[0] ?? 0;
  return [headerPath(rest.slice(0, split), 'a/'), headerPath(rest.slice(split + 1), 'b/')];
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** `Binary files a/x and b/y differ`: the two paths. */
function binaryPaths(line: string): [string | null, string | null] | null {
  const match = /^Binary files (.+) and (.+) differ$/.exec(line);
  if (match === null) return null;
  return [headerPath(match[1] ?? '', 'a/'), headerPath(match[2] ?? '', 'b/')];
}

function startHunk(line: string): DiffHunk | null {
  const match = HUNK_HEADER.exec(line);
  if (match === null) return null;
  return {
    header: line,
    oldStart: Number(match[1]),
    oldCount: match[2] === undefined ? 1 : Number(match[2]),
    newStart: Number(match[3]),
    newCount: match[4] === undefined ? 1 : Number(match[4]),
    section: match[5] ?? '',
    lines: [],
  };
}

/** Settles the fields that depend on every header line having been read. */
function finishFile(file: DiffFile): DiffFile {
  let status = file.status;
  if (status === 'modified' && file.oldPath === null && file.newPath !== null) status = 'added';
  if (status === 'modified' && file.newPath === null && file.oldPath !== null) status = 'deleted';
  return { ...file, status, path: file.newPath ?? file.oldPath ?? file.path };
}

/** Applies one extended header line (between `diff --git` and the first hunk). */
function readHeader(file: DiffFile, line: string): void {
  file.headers.push(line);
  const binary = binaryPaths(line);
  if (binary !== null) {
    file.binary = true;
    [file.oldPath, file.newPath] = binary;
  } else if (line.startsWith('GIT binary patch')) file.binary = true;
  else if (line.startsWith('new file mode')) {
    file.status = 'added';
    file.oldPath = null;
  } else if (line.startsWith('deleted file mode')) {
    file.status = 'deleted';
    file.newPath = null;
  } else if (line.startsWith('rename from ')) {
    file.status = 'renamed';
    file.oldPath = unquotePath(line.slice('rename from '.length));
  } else if (line.startsWith('rename to ')) {
    file.status = 'renamed';
    file.newPath = unquotePath(line.slice('rename to '.length));
  } else if (line.startsWith('copy from ')) {
    file.status = 'copied';
    file.oldPath = unquotePath(line.slice('copy from '.length));
  } else if (line.startsWith('copy to ')) {
    file.status = 'copied';
    file.newPath = unquotePath(line.slice('copy to '.length));
  } else if (line.startsWith('old mode ')) {
    file.modeChange = { from: line.slice('old mode '.length), to: file.modeChange?.to ?? '' };
  } else if (line.startsWith('new mode ')) {
    file.modeChange = { from: file.modeChange?.from ?? '', to: line.slice('new mode '.length) };
  } else if (line.startsWith('--- ')) file.oldPath = headerPath(line.slice(4), 'a/');
  else if (line.startsWith('+++ ')) file.newPath = headerPath(line.slice(4), 'b/');
}

/**
 * Parses a unified diff as git writes it (`diff --git` sections, or plain `---`/`+++`
 * pairs) into files, hunks and numbered lines. Never throws: lines it cannot place become
 * `meta` lines or header lines of the file they follow, or the preamble.
 */
export function parsePatch(patch: string): ParsedPatch {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const preamble: string[] = [];
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  let oldLine = 0;
  let newLine = 0;

  const closeFile = () => {
    if (file !== null) files.push(finishFile(file));
    file = null;
    hunk = null;
  };
  const addLine = (target: DiffHunk, kind: DiffLineKind, text: string, oldNo: number | null, newNo: number | null) => {
    target.lines.push({ kind, text, oldLine: oldNo, newLine: newNo });
    if (file === null) return;
    file.lineCount++;
    if (kind === 'add') file.additions++;
    if (kind === 'del') file.deletions++;
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const inHunk: boolean = hunk !== null && (oldLeft > 0 || newLeft > 0);
    if (hunk !== null && inHunk) {
      const current: DiffHunk = hunk;
      const sign = line[0];
      if (sign === '+' && newLeft > 0) {
        addLine(current, 'add', line.slice(1), null, newLine++);
        newLeft--;
        continue;
      }
      if (sign === '-' && oldLeft > 0) {
        addLine(current, 'del', line.slice(1), oldLine++, null);
        oldLeft--;
        continue;
      }
      if ((sign === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
        addLine(current, 'context', line.slice(1), oldLine++, newLine++);
        oldLeft--;
        newLeft--;
        continue;
      }
      if (sign === NO_NEWLINE) {
        addLine(current, 'meta', line, null, null);
        continue;
      }
      // The hunk ended early (a cut patch): fall through and read the line afresh.
      oldLeft = 0;
      newLeft = 0;
    }
    if (line.startsWith('diff --git ')) {
      closeFile();
      const [oldPath, newPath] = gitHeaderPaths(line.slice('diff --git '.length));
      file = emptyFile(oldPath, newPath);
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ') && (file === null || hunk !== null)) {
      // A plain unified diff, or a second `---` after hunks: a new file without `diff --git`.
      closeFile();
      file = emptyFile(null, null);
    }
    const started = file === null ? null : startHunk(line);
    if (file !== null && started !== null) {
      file.hunks.push(started);
      hunk = started;
      oldLeft = started.oldCount;
      newLeft = started.newCount;
      oldLine = started.oldStart;
      newLine = started.newStart;
      continue;
    }
    if (file === null) {
      preamble.push(line);
    } else if (hunk !== null) {
      addLine(hunk, 'meta', line, null, null);
    } else {
      readHeader(file, line);
    }
  }
  closeFile();
  return { preamble, files };
}
