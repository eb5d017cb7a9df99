import { describe, expect, it } from 'vitest';
import { folderToList } from './workspaceListing';

const screen = { workspaceDir: '/work/examples', dialogOpen: false, workflowShown: false, openingAtStart: false };

describe('folderToList', () => {
  it('lists the folder for the open panel when nothing is open', () => {
    expect(folderToList(screen)).toBe('/work/examples');
  });

  it('does not list while the start-up file is opening or once a workflow is shown', () => {
    expect(folderToList({ ...screen, openingAtStart: true })).toBeNull();
    expect(folderToList({ ...screen, workflowShown: true })).toBeNull();
  });

  it('lists the folder when the open dialog is shown over a workflow', () => {
    expect(folderToList({ ...screen, workflowShown: true, dialogOpen: true })).toBe('/work/examples');
  });

  it('lists nothing without a workspace folder', () => {
    expect(folderToList({ ...screen, workspaceDir: null })).toBeNull();
    expect(folderToList({ ...screen, workspaceDir: null, dialogOpen: true })).toBeNull();
  });
});
