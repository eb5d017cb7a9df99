import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DiffHunk } from '../../generated/DiffHunk';
import type { FileChange } from '../../generated/FileChange';
import { DiffView } from './DiffView';

const render = (files: FileChange[], cut = false) => renderToStaticMarkup(createElement(DiffView, { files, cut }));

function change(path: string, fields: Partial<FileChange> = {}): FileChange {
  return {
    path,
    old_path: null,
    status: 'modified',
    mode_change: null,
    binary: false,
    too_large: false,
    additions: 0,
    deletions: 0,
    hunks: [],
    ...fields,
  };
}

const EDIT: DiffHunk = {
  header: '@@ -1,2 +1,2 @@',
  old_start: 1,
  old_count: 2,
  new_start: 1,
  new_count: 2,
  lines: [
    { kind: 'context', text: 'same', old_line: 1, new_line: 1 },
    { kind: 'removed', text: 'old', old_line: 2, new_line: null },
    { kind: 'added', text: 'new', old_line: null, new_line: 2 },
    { kind: 'no_newline', text: '\\ No newline at end of file', old_line: null, new_line: null },
  ],
};

describe('DiffView', () => {
  it('renders a file with its counts, numbered lines and kinds', () => {
    const html = render([change('a.txt', { additions: 1, deletions: 1, hunks: [EDIT] })]);
    expect(html).toContain('data-path="a.txt"');
    expect(html).toContain('+1</span>');
    expect(html).toContain('−1</span>');
    expect(html).toContain('@@ -1,2 +1,2 @@');
    expect(html).toContain('class="diff-line is-del"');
    expect(html).toContain('class="diff-line is-add"');
    expect(html).toContain('class="diff-line is-meta"');
    expect(html).toContain('data-sign="+"');
    expect(html).toContain('data-line="2"');
  });

  it('shows a rename as old → new, and binary, too-large and mode-only files as notes', () => {
    const html = render([
      change('new/name.txt', { status: 'renamed', old_path: 'old/name.txt' }),
      change('image.png', { binary: true }),
      change('huge.json', { too_large: true, additions: 90000 }),
      change('run.sh', { mode_change: { from: '100644', to: '100755' } }),
    ]);
    expect(html).toContain('old/name.txt <span aria-label="moved to">→</span> new/name.txt');
    expect(html).toContain('Moved without changes.');
    expect(html).toContain('Binary file: its contents are not shown.');
    expect(html).toContain('changed too much to show its lines');
    expect(html).toContain('+90000');
    expect(html).toContain('Mode changed from 100644 to 100755.');
    expect(html).not.toContain('No lines changed.');
  });

  it('folds a long file behind Show', () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({ kind: 'added' as const, text: `line ${i}`, old_line: null, new_line: i + 1 }));
    const hunk: DiffHunk = { header: '@@ -0,0 +1,500 @@', old_start: 0, old_count: 0, new_start: 1, new_count: 500, lines };
    const html = render([change('big', { status: 'added', additions: 500, hunks: [hunk] })]);
    expect(html).toContain('500 lines');
    expect(html).toContain('>Show</button>');
    expect(html).not.toContain('line 0');
  });

  it('says when nothing changed, and when the patch was cut', () => {
    expect(render([])).toContain('No changes.');
    expect(render([change('a.txt')], true)).toContain('cut at its size limit');
  });
});
