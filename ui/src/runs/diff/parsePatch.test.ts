import { describe, expect, it } from 'vitest';
import { parsePatch } from './parsePatch';
import { unquotePath } from './unquotePath';

const lines = (...l: string[]) => l.join('\n') + '\n';

describe('parsePatch', () => {
  it('numbers the lines of a modified file', () => {
    const { files, preamble } = parsePatch(
      lines(
        'diff --git a/src/main.rs b/src/main.rs',
        'index 3b18e51..a9c2f0e 100644',
        '--- a/src/main.rs',
        '+++ b/src/main.rs',
        '@@ -1,3 +1,4 @@ fn main() {',
        ' one',
        '-two',
        '+deux',
        '+zwei',
        ' three',
      ),
    );
    expect(preamble).toEqual([]);
    expect(files).toHaveLength(1);
    const file = files[0]!;
    expect(file).toMatchObject({
      path: 'src/main.rs',
      oldPath: 'src/main.rs',
      newPath: 'src/main.rs',
      status: 'modified',
      binary: false,
      additions: 2,
      deletions: 1,
      lineCount: 5,
    });
    const hunk = file.hunks[0]!;
    expect(hunk).toMatchObject({ oldStart: 1, oldCount: 3, newStart: 1, newCount: 4, section: 'fn main() {' });
    expect(hunk.lines.map((l) => [l.kind, l.text, l.oldLine, l.newLine])).toEqual([
      ['context', 'one', 1, 1],
      ['del', 'two', 2, null],
      ['add', 'deux', null, 2],
      ['add', 'zwei', null, 3],
      ['context', 'three', 3, 4],
    ]);
  });

  it('reads several files and hunks, and content lines that look like headers', () => {
    const { files } = parsePatch(
      lines(
        'diff --git a/a.sql b/a.sql',
        '--- a/a.sql',
        '+++ b/a.sql',
        '@@ -10,2 +10,2 @@',
        '--- old comment',
        '+++ new comment',
        ' select 1;',
        '@@ -40 +40 @@',
        '-x',
        '+y',
        'diff --git a/b.txt b/b.txt',
        '--- a/b.txt',
        '+++ b/b.txt',
        '@@ -1 +1 @@',
        '-b',
        '+B',
      ),
    );
    expect(files.map((f) => f.path)).toEqual(['a.sql', 'b.txt']);
    const first = files[0]!;
    expect(first.hunks).toHaveLength(2);
    expect(first.hunks[0]!.lines.map((l) => [l.kind, l.text])).toEqual([
      ['del', '-- old comment'],
      ['add', '++ new comment'],
      ['context', 'select 1;'],
    ]);
    expect(first.hunks[1]!.lines.map((l) => [l.oldLine, l.newLine])).toEqual([
      [40, null],
      [null, 40],
    ]);
  });

  it('marks new and deleted files', () => {
    const { files } = parsePatch(
      lines(
        'diff --git a/new.txt b/new.txt',
        'new file mode 100644',
        'index 0000000..ce01362',
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1,2 @@',
        '+hello',
        '+world',
        'diff --git a/old.txt b/old.txt',
        'deleted file mode 100644',
        'index ce01362..0000000',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
      ),
    );
    expect(files.map((f) => [f.status, f.path, f.oldPath, f.newPath])).toEqual([
      ['added', 'new.txt', null, 'new.txt'],
      ['deleted', 'old.txt', 'old.txt', null],
    ]);
    expect(files[0]!.hunks[0]!.lines.map((l) => l.newLine)).toEqual([1, 2]);
    expect(files[1]!.hunks[0]!.lines.map((l) => l.oldLine)).toEqual([1]);
  });

  it('reads renames, with and without content changes, and mode changes', () => {
    const { files } = parsePatch(
      lines(
        'diff --git a/docs/old name.md b/docs/new name.md',
        'similarity index 100%',
        'rename from docs/old name.md',
        'rename to docs/new name.md',
        'diff --git a/run.sh b/run.sh',
        'old mode 100644',
        'new mode 100755',
      ),
    );
    expect(files[0]).toMatchObject({
      status: 'renamed',
      oldPath: 'docs/old name.md',
      newPath: 'docs/new name.md',
      path: 'docs/new name.md',
      hunks: [],
    });
    expect(files[1]).toMatchObject({ status: 'modified', path: 'run.sh', modeChange: { from: '100644', to: '100755' } });
  });

  it('marks binary files, including new ones', () => {
    const { files } = parsePatch(
      lines(
        'diff --git a/logo.png b/logo.png',
        'index 1111111..2222222 100644',
        'Binary files a/logo.png and b/logo.png differ',
        'diff --git a/icon.ico b/icon.ico',
        'new file mode 100644',
        'index 0000000..3333333',
        'Binary files /dev/null and b/icon.ico differ',
      ),
    );
    expect(files.map((f) => [f.path, f.status, f.binary, f.hunks.length])).toEqual([
      ['logo.png', 'modified', true, 0],
      ['icon.ico', 'added', true, 0],
    ]);
  });

  it('keeps "No newline at end of file" as a note without numbers', () => {
    const { files } = parsePatch(
      lines(
        'diff --git a/x b/x',
        '--- a/x',
        '+++ b/x',
        '@@ -1 +1 @@',
        '-last',
        '\\ No newline at end of file',
        '+last',
      ),
    );
    const file = files[0]!;
    expect(file.hunks[0]!.lines.map((l) => [l.kind, l.oldLine, l.newLine])).toEqual([
      ['del', 1, null],
      ['meta', null, null],
      ['add', null, 1],
    ]);
    expect([file.additions, file.deletions]).toEqual([1, 1]);
  });

  it('reads plain unified diffs and keeps text before the first file', () => {
    const { files, preamble } = parsePatch(
      lines('a note', '--- a/f.txt', '+++ b/f.txt', '@@ -1 +1 @@', '-a', '+b', '--- g.txt', '+++ g.txt', '@@ -1 +1 @@', '-c', '+d'),
    );
    expect(preamble).toEqual(['a note']);
    expect(files.map((f) => f.path)).toEqual(['f.txt', 'g.txt']);
  });

  it('keeps a note after a cut hunk as a meta line', () => {
    const { files } = parsePatch(
      'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n-b\n[diff cut at 4 MB; see the checkpoint commits for the rest]\n',
    );
    const hunkLines = files[0]!.hunks[0]!.lines;
    expect(hunkLines.at(-1)).toEqual({
      kind: 'meta',
      text: '[diff cut at 4 MB; see the checkpoint commits for the rest]',
      oldLine: null,
      newLine: null,
    });
  });

  it('decodes quoted paths', () => {
    const { files } = parsePatch(
      lines(
        'diff --git "a/t\\303\\251st.txt" "b/t\\303\\251st.txt"',
        'new file mode 100644',
        '--- /dev/null',
        '+++ "b/t\\303\\251st.txt"',
        '@@ -0,0 +1 @@',
        '+é',
      ),
    );
    expect(files[0]!.path).toBe('tést.txt');
    expect(unquotePath('"tab\\there \\"q\\""')).toBe('tab\there "q"');
    expect(unquotePath('plain.txt')).toBe('plain.txt');
  });

  it('returns nothing for an empty patch', () => {
    expect(parsePatch('')).toEqual({ preamble: [], files: [] });
  });
});
