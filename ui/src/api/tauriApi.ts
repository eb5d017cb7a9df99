import { Channel, invoke } from '@tauri-apps/api/core';
import { listen } from '@tauri-apps/api/event';
import { open } from '@tauri-apps/plugin-dialog';
import { openUrl } from '@tauri-apps/plugin-opener';
import type { Api, WatchHandlers } from './Api';
import { toApiError } from './apiError';
import { tauriRunFileUrl } from './runFileUrl';
import { type EventHandlers, isRunEvent, type Unsubscribe } from './runEvent';
import type { EventsRequest } from '../generated/EventsRequest';
import type { WorkflowChanged } from '../generated/WorkflowChanged';
import { WORKFLOW_EXTENSIONS } from '../generated/workflowExtensions';
import { requestOperations } from './requestOperations';

/**
 * Follows a run's events through a Tauri channel: the `follow_events` command pushes each
 * event into it until the run ends, then resolves.
 */
function followOverChannel(req: EventsRequest, handlers: EventHandlers): Unsubscribe {
  let active = true;
  let last = req.after_seq;
  const channel = new Channel<unknown>();
  channel.onmessage = (value) => {
    if (active && isRunEvent(value) && value.seq > last) {
      last = value.seq;
      handlers.onEvent(value);
    }
  };
  invoke('follow_events', { req, onEvent: channel }).then(
    () => {
      if (active) handlers.onEnd?.();
    },
    (reason: unknown) => {
      if (active) handlers.onError?.(toApiError(reason));
    },
  );
  return () => {
    active = false;
  };
}

/** The event `src-tauri/src/second_launch.rs` sends with a workflow path to open. */
export const OPEN_WORKFLOW_EVENT = 'open-workflow';

/** Listens for the shell's requests to open a workflow (a second launch with a file). */
function listenForOpenRequests(onOpen: (path: string) => void): Unsubscribe {
  let active = true;
  const stop = listen<unknown>(OPEN_WORKFLOW_EVENT, (event) => {
    if (active && typeof event.payload === 'string') onOpen(event.payload);
  });
  return () => {
    active = false;
    void stop.then((unlisten) => unlisten(), () => undefined);
  };
}

let watchCount = 0;

/**
 * Watches a workflow file through a Tauri channel. The command runs until
 * `unwatch_workflow` names its watch, which the returned function does.
 */
function watchOverChannel(path: string, handlers: WatchHandlers): Unsubscribe {
  let active = true;
  watchCount += 1;
  const req = { path, watch_id: `watch-${Date.now().toString(36)}-${watchCount}` };
  const channel = new Channel<WorkflowChanged>();
  channel.onmessage = (change) => {
    if (active) handlers.onChange(change);
  };
  invoke('watch_workflow', { req, onChange: channel }).catch((reason: unknown) => {
    if (active) handlers.onError?.(toApiError(reason));
  });
  // Tauri has no acknowledgement for a started command: `onReady` fires once the command
  // is sent, so a caller re-reading the file then may also get a change it already saw.
  queueMicrotask(() => {
    if (active) handlers.onReady?.();
  });
  return () => {
    active = false;
    invoke('unwatch_workflow', { req }).catch(() => undefined);
  };
}

/** Invokes a Tauri command; rejections (the command's `ApiError`) are normalised. */
async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (reason) {
    throw toApiError(reason);
  }
}

/** The API as Tauri commands; each takes its request as the argument `req`. */
export function createTauriApi(): Api {
  return {
    hasFileDialog: true,
    // Each command takes its request as the argument `req`; one without a request, none.
    ...requestOperations((operation, req) => call(operation.name, operation.takesRequest ? { req } : undefined)),
    followEvents: followOverChannel,
    runFileUrl: (req) => tauriRunFileUrl(req, navigator.userAgent),
    saveRunFile: (req) => call('save_run_file', { req }),
    async openExternalUrl(url) {
      try {
        await openUrl(url);
      } catch (reason) {
        throw toApiError(reason);
      }
    },
    onOpenRequest: listenForOpenRequests,
    watchWorkflow: watchOverChannel,
    async pickWorkflowFile() {
      try {
        const picked = await open({
          multiple: false,
          directory: false,
          title: 'Open workflow',
          filters: [{ name: 'Workflow', extensions: [...WORKFLOW_EXTENSIONS] }],
        });
        return typeof picked === 'string' ? picked : null;
      } catch (reason) {
        throw toApiError(reason);
      }
    },
  };
}
