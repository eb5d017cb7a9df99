import type { Api, WatchHandlers } from './Api';
import { toApiError } from './apiError';
import { httpRunFileUrl } from './runFileUrl';
import { type EventHandlers, isRunEvent, type Unsubscribe } from './runEvent';
import type { EventsRequest } from '../generated/EventsRequest';
import type { WorkflowChanged } from '../generated/WorkflowChanged';

/** Calls one operation as `POST {base}/api/{operation}` with a JSON body. */
async function post<T>(baseUrl: string, operation: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/${operation}`, {
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
    throw toApiError(`The server answered ${operation} with ${response.status} and no JSON body.`);
  }
  if (!response.ok) throw toApiError(payload);
  // The body's shape is the Rust type's serde form; the generated types describe it.
  return payload as T;
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
    launchInfo: () => post(baseUrl, 'launch_info', {}),
    openWorkflow: (req) => post(baseUrl, 'open_workflow', req),
    checkWorkflow: (req) => post(baseUrl, 'check_workflow', req),
    listWorkflows: (req) => post(baseUrl, 'list_workflows', req),
    editWorkflow: (req) => post(baseUrl, 'edit_workflow', req),
    saveWorkflow: (req) => post(baseUrl, 'save_workflow', req),
    readLayout: (req) => post(baseUrl, 'read_layout', req),
    saveLayout: (req) => post(baseUrl, 'save_layout', req),
    readReference: (req) => post(baseUrl, 'read_reference', req),
    checkExpression: (req) => post(baseUrl, 'check_expression', req),
    listTemplates: () => post(baseUrl, 'list_templates', null),
    createWorkflow: (req) => post(baseUrl, 'create_workflow', req),
    watchWorkflow: (path, handlers) => watchOverSse(baseUrl, path, handlers),
    pickWorkflowFile: () => Promise.resolve(null),
    listRuns: (req) => post(baseUrl, 'list_runs', req),
    getRun: (req) => post(baseUrl, 'get_run', req),
    runTimeline: (req) => post(baseUrl, 'run_timeline', req),
    recentWorkflows: (req) => post(baseUrl, 'recent_workflows', req),
    workflowTrust: (req) => post(baseUrl, 'workflow_trust', req),
    startRun: (req) => post(baseUrl, 'start_run', req),
    resumeRun: (req) => post(baseUrl, 'resume_run', req),
    forkRun: (req) => post(baseUrl, 'fork_run', req),
    cancelRun: (req) => post(baseUrl, 'cancel_run', req),
    pendingGates: (req) => post(baseUrl, 'pending_gates', req),
    answerGate: (req) => post(baseUrl, 'answer_gate', req),
    runCheckpoints: (req) => post(baseUrl, 'run_checkpoints', req),
    checkpointFiles: (req) => post(baseUrl, 'checkpoint_files', req),
    checkpointFile: (req) => post(baseUrl, 'checkpoint_file', req),
    checkpointState: (req) => post(baseUrl, 'checkpoint_state', req),
    checkpointDiff: (req) => post(baseUrl, 'checkpoint_diff', req),
    rollbackRun: (req) => post(baseUrl, 'rollback_run', req),
    runArtifacts: (req) => post(baseUrl, 'run_artifacts', req),
    junitReport: (req) => post(baseUrl, 'junit_report', req),
    runPatch: (req) => post(baseUrl, 'run_patch', req),
    runGraph: (req) => post(baseUrl, 'run_graph', req),
    followEvents: (req, handlers) => followOverSse(baseUrl, req, handlers),
    runFileUrl: (req) => httpRunFileUrl(baseUrl, req),
    saveRunFile: null,
  };
}
