import { Channel, invoke } from '@tauri-apps/api/core';
import { open } from '@tauri-apps/plugin-dialog';
import type { Api, WatchHandlers } from './Api';
import { toApiError } from './apiError';
import { tauriRunFileUrl } from './runFileUrl';
import { type EventHandlers, isRunEvent, type Unsubscribe } from './runEvent';
import type { EventsRequest } from '../generated/EventsRequest';
import type { WorkflowChanged } from '../generated/WorkflowChanged';
import { WORKFLOW_EXTENSIONS } from '../generated/workflowExtensions';

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
    launchInfo: () => call('launch_info'),
    openWorkflow: (req) => call('open_workflow', { req }),
    checkWorkflow: (req) => call('check_workflow', { req }),
    listWorkflows: (req) => call('list_workflows', { req }),
    editWorkflow: (req) => call('edit_workflow', { req }),
    saveWorkflow: (req) => call('save_workflow', { req }),
    listRuns: (req) => call('list_runs', { req }),
    getRun: (req) => call('get_run', { req }),
    runTimeline: (req) => call('run_timeline', { req }),
    recentWorkflows: (req) => call('recent_workflows', { req }),
    workflowTrust: (req) => call('workflow_trust', { req }),
    startRun: (req) => call('start_run', { req }),
    resumeRun: (req) => call('resume_run', { req }),
    forkRun: (req) => call('fork_run', { req }),
    cancelRun: (req) => call('cancel_run', { req }),
    pendingGates: (req) => call('pending_gates', { req }),
    answerGate: (req) => call('answer_gate', { req }),
    runCheckpoints: (req) => call('run_checkpoints', { req }),
    checkpointFiles: (req) => call('checkpoint_files', { req }),
    checkpointFile: (req) => call('checkpoint_file', { req }),
    checkpointState: (req) => call('checkpoint_state', { req }),
    checkpointDiff: (req) => call('checkpoint_diff', { req }),
    rollbackRun: (req) => call('rollback_run', { req }),
    runArtifacts: (req) => call('run_artifacts', { req }),
    junitReport: (req) => call('junit_report', { req }),
    runPatch: (req) => call('run_patch', { req }),
    runGraph: (req) => call('run_graph', { req }),
    followEvents: followOverChannel,
    runFileUrl: (req) => tauriRunFileUrl(req, navigator.userAgent),
    saveRunFile: (req) => call('save_run_file', { req }),
    readLayout: (req) => call('read_layout', { req }),
    saveLayout: (req) => call('save_layout', { req }),
    readReference: (req) => call('read_reference', { req }),
    checkExpression: (req) => call('check_expression', { req }),
    listTemplates: () => call('list_templates'),
    createWorkflow: (req) => call('create_workflow', { req }),
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
