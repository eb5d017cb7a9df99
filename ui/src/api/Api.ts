import type { WorkflowChanged } from '../generated/WorkflowChanged';
import type { ApiError } from '../generated/ApiError';
import type { EventsRequest } from '../generated/EventsRequest';
import type { RunFileRequest } from '../generated/RunFileRequest';
import type { SavedRunFile } from '../generated/SavedRunFile';
import type { OperationMember, RequestOperations } from '../generated/operations';
import type { EventHandlers, Unsubscribe } from './runEvent';

/** What to do when a watched workflow file changes. */
export interface WatchHandlers {
  onChange(change: WorkflowChanged): void;
  onReady?(): void;
  /** The watch could not be set up or broke; no more changes will be reported. */
  onError?(error: ApiError): void;
}

/**
 * The application API as the UI sees it. Two implementations: Tauri commands in the
 * desktop window, `POST /api/{operation}` when heddle-server serves the UI to a browser.
 * The request/response operations come from heddle-api's operation table
 * (`RequestOperations`, generated); the members below are the ones each door calls its own
 * way. Every failure rejects with an `ApiError` (see `apiError.ts`).
 */
export interface Api extends RequestOperations {
  /** Whether `pickWorkflowFile` can show a native dialog (false in a browser). */
  readonly hasFileDialog: boolean;
  /**
   * Calls `onChange` whenever the file changes on disk (including the editor's own saves),
   * until the returned function is called. `onReady` once the watch is in place.
   */
  watchWorkflow(path: string, handlers: WatchHandlers): Unsubscribe;
  /** Tauri: native open dialog (null when cancelled). HTTP: always null. */
  pickWorkflowFile(): Promise<string | null>;
  /** A URL the page can load a run's file from (an image, a video, a log, a report). */
  runFileUrl(req: RunFileRequest): string;
  /**
   * Saves a copy of a run's file into the user's Downloads folder and says where. The
   * desktop window needs it: a download link to another scheme only navigates there. Null
   * in a browser, whose own download of the file's URL does the job.
   */
  readonly saveRunFile: ((req: RunFileRequest) => Promise<SavedRunFile>) | null;
  /**
   * Delivers the run's events after `req.after_seq`, in order and each once, then new ones
   * as they happen; `onEnd` once the run has ended and everything was delivered.
   */
  followEvents(req: EventsRequest, handlers: EventHandlers): Unsubscribe;
  /**
   * Opens an http(s) address in the system's browser (the desktop window cannot show other
   * sites). Null in a browser, where a link opening a new tab does it.
   */
  readonly openExternalUrl: ((url: string) => Promise<void>) | null;
  /**
   * Calls `onOpen` with the path of each workflow the app is asked to open while running (a
   * second `heddle-desktop FILE` hands it to this window), until the returned function is
   * called. Never called in a browser.
   */
  onOpenRequest(onOpen: (path: string) => void): Unsubscribe;
}

/** The table's operations the UI calls that `Api` has no member for: must stay `never`. */
type MissingMembers = Exclude<OperationMember, keyof Api>;
// Fails to compile, naming the member, when an operation is added without its `Api` member.
const noMissingMembers: [MissingMembers] extends [never] ? true : MissingMembers = true;
void noMissingMembers;
