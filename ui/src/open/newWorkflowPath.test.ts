import { describe, expect, it } from 'vitest';
import { defaultFileName, newWorkflowPath } from './newWorkflowPath';

describe('newWorkflowPath', () => {
  it('puts a bare name in the workspace folder and adds .dot', () => {
    expect(newWorkflowPath('feature', '/work/ws')).toEqual({ ok: true, path: '/work/ws/feature.dot' });
    expect(newWorkflowPath(' feature.dot ', '/work/ws/')).toEqual({ ok: true, path: '/work/ws/feature.dot' });
    expect(newWorkflowPath('./flows/review', '/work/ws')).toEqual({ ok: true, path: '/work/ws/flows/review.dot' });
  });

  it('keeps a full path as it is', () => {
    expect(newWorkflowPath('/tmp/a/b.dot', '/work/ws')).toEqual({ ok: true, path: '/tmp/a/b.dot' });
    expect(newWorkflowPath('/tmp/a/b', null)).toEqual({ ok: true, path: '/tmp/a/b.dot' });
    expect(newWorkflowPath('C:\\flows\\new', null)).toEqual({ ok: true, path: 'C:\\flows\\new.dot' });
  });

  it('uses the separator of a Windows workspace', () => {
    expect(newWorkflowPath('flows/new', 'C:\\Users\\me\\ws')).toEqual({
      ok: true,
      path: 'C:\\Users\\me\\ws\\flows\\new.dot',
    });
  });

  it('writes the extension in lower case', () => {
    expect(newWorkflowPath('Plan.DOT', '/ws')).toEqual({ ok: true, path: '/ws/Plan.dot' });
    expect(newWorkflowPath('Plan.Fabro', '/ws')).toEqual({ ok: true, path: '/ws/Plan.fabro' });
  });

  it('keeps a Fabro workflow a .fabro file', () => {
    expect(newWorkflowPath('fix-build/workflow.fabro', '/ws')).toEqual({
      ok: true,
      path: '/ws/fix-build/workflow.fabro',
    });
    expect(newWorkflowPath('notes.fabro.txt', '/ws')).toEqual({ ok: true, path: '/ws/notes.fabro.txt.dot' });
  });

  it('asks for a full path without a workspace folder', () => {
    const result = newWorkflowPath('feature', null);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/full path/);
  });

  it('refuses empty names, folders and ~', () => {
    for (const typed of ['', '   ', 'flows/', '.dot', 'flows/.dot', '.fabro', '~/x.dot']) {
      expect(newWorkflowPath(typed, '/ws').ok, typed).toBe(false);
    }
  });
});

describe('defaultFileName', () => {
  it('names the file after the template', () => {
    expect(defaultFileName('review-gate')).toBe('review-gate.dot');
    expect(defaultFileName('blank')).toBe('workflow.dot');
  });
});
