import type { Api, WatchHandlers } from './Api';
import { toApiError } from './apiError';
import { httpRunFileUrl } from './runFileUrl';
import { type EventHandlers, isRunEvent, type Unsubscribe } from './runEvent';
import type { EventsRequest } from '../generated/EventsRequest';
import type { WorkflowChanged } from '../generated/WorkflowChanged';
import type { RequestOperation } from '../generated/operations';
import { requestOperations } from './requestOperations';

/** Calls one operation as `POST {base}{path}` (`/api/{operation}`) with a JSON body. */
async function post(baseUrl: string, operation: RequestOperation, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${operation.path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (reason) {
    throw toApiError(reason);
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    throw toApiError(`The server answered ${operation.name} with ${response.status} and no JSON body.`);
  }
  if (!response.ok) throw toApiError(payload);
  // The body's shape is the Rust type's serde form; the generated types describe it.
  return payload;
}

/**
 * Follows a run's events over Server-Sent Events. The browser reconnects on its own with
 * `Last-Event-ID`, and events at or before the last seq seen are dropped, so each arrives
 * once. The access token travels in the cookie the server set when the page loaded.
 */
function followOverSse(baseUrl: string, req: EventsRequest, handlers: EventHandlers): Unsubscribe {
  const query = new URLSearchParams({ run: req.run_id, after: String(req.after_seq) });
  const source = new EventSource(`${baseUrl}/api/events?${query.toString()}`);
  let last = req.after_seq;
  source.onmessage = (message: MessageEvent<string>) => {
    let value: unknown;
    try {
      value = JSON.parse(message.data);
    } catch {
      return;
    }
    if (isRunEvent(value) && value.seq > last) {
      last = value.seq;
      handlers.onEvent(value);
    }
  };
  source.addEventListener('end', () => {
    source.close();
    handlers.onEnd?.();
  });
  source.addEventListener('failed', (message: MessageEvent<string>) => {
    source.close();
    let body: unknown = message.data;
    try {
      body = JSON.parse(message.data);
    } catch {
      // Not JSON: reported as text.
    }
    handlers.onError?.(toApiError(body));
  });
  return () => source.close();
}

/** Watches a workflow file over Server-Sent Events (`ready`, then `changed` events). */
function watchOverSse(baseUrl: string, path: string, handlers: WatchHandlers): Unsubscribe {
  const source = new EventSource(`${baseUrl}/api/watch_workflow?${new URLSearchParams({ path }).toString()}`);
  source.addEventListener('ready', () => handlers.onReady?.());
  source.addEventListener('changed', (message: MessageEvent<string>) => {
    try {
      handlers.onChange(JSON.parse(message.data) as WorkflowChanged);
    } catch {
      // Not JSON: not an event of ours.
    }
  });
  source.onerror = () => {
    // The browser reconnects on its own while the server is there; a refused watch (the
    // folder is gone) ends the stream for good.
    if (source.readyState === EventSource.CLOSED) {
      handlers.onError?.(toApiError(`Cannot watch ${path} for changes.`));
    }
  };
  return () => source.close();
}

/** The API over HTTP, same-origin with the page unless `baseUrl` says otherwise. */
export function createHttpApi(baseUrl = ''): Api {
  return {
    hasFileDialog: false,
    // An operation without a request is sent an empty object.
    ...requestOperations((operation, req) => post(baseUrl, operation, operation.takesRequest ? req : {})),
    watchWorkflow: (path, handlers) => watchOverSse(baseUrl, path, handlers),
    pickWorkflowFile: () => Promise.resolve(null),
    followEvents: (req, handlers) => followOverSse(baseUrl, req, handlers),
    runFileUrl: (req) => httpRunFileUrl(baseUrl, req),
    saveRunFile: null,
    openExternalUrl: null,
    onOpenRequest: () => () => undefined,
  };
}
