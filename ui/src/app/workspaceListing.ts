/**
 * When the app lists the workflows of its workspace folder: only while a list of them is on
 * screen. Started with a file, the app shows that file and nothing else, so listing its folder
 * (reading every workflow in it) would only compete with opening and drawing the file.
 */

/** What is on screen, as far as the workspace list goes. */
export interface ListingScreen {
  /** The folder the app was started in or with; null when it has none. */
  workspaceDir: string | null;
  /** The open dialog (which lists the folder) is shown. */
  dialogOpen: boolean;
  /** A workflow is shown, so the open panel is not. */
  workflowShown: boolean;
  /** The file the app was started with is still being opened (shown as "Opening…"). */
  openingAtStart: boolean;
}

/** The folder to list now, or null for none: the open dialog's, or the open panel's when it shows. */
export function folderToList({ workspaceDir, dialogOpen, workflowShown, openingAtStart }: ListingScreen): string | null {
  if (dialogOpen) return workspaceDir;
  return workflowShown || openingAtStart ? null : workspaceDir;
}
