import { describe, expect, it } from 'vitest';
import { diskChangeAction } from './diskChange';

describe('diskChangeAction', () => {
  it('ignores the editor’s own save and touches that change nothing', () => {
    expect(diskChangeAction('digraph A {}', 'digraph A {}', false)).toEqual({ action: 'ignore' });
    expect(diskChangeAction('digraph A {}', 'digraph A {}', true)).toEqual({ action: 'ignore' });
  });

  it('follows the disk when nothing is unsaved', () => {
    expect(diskChangeAction('digraph B {}', 'digraph A {}', false)).toEqual({ action: 'reload' });
  });

  it('asks, with the new disk text, when there are unsaved edits', () => {
    expect(diskChangeAction('digraph B {}', 'digraph A {}', true)).toEqual({
      action: 'ask',
      diskSource: 'digraph B {}',
    });
  });

  it('reports a deleted file whatever the state', () => {
    expect(diskChangeAction(null, 'digraph A {}', false)).toEqual({ action: 'deleted' });
    expect(diskChangeAction(null, 'digraph A {}', true)).toEqual({ action: 'deleted' });
  });
});
