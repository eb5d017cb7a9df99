import { Channel, invoke } from '@tauri-apps/api/core';
import { open } from '@tauri-apps/plugin-dialog';
import type { Api } from './Api';
import { toApiError } from './apiError';
import { type EventHandlers, isRunEvent, type Unsubscribe } from './runEvent';
import type { EventsRequest } from '../generated/EventsRequest';

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
    startRun: (req) => call('start_run', { req }),
    resumeRun: (req) => call('resume_run', { req }),
    forkRun: (req) => call('fork_run', { req }),
    cancelRun: (req) => call('cancel_run', { req }),
    pendingGates: (req) => call('pending_gates', { req }),
    answerGate: (req) => call('answer_gate', { req }),
    runCheckpoints: (req) => call('run_checkpoints', { req }),
    checkpointFiles: (req) => call('checkpoint_files', { req }),
    checkpointFile: (req) => call('checkpoint_file', { req }),
    checkpointDiff: (req) => call('checkpoint_diff', { req }),
    rollbackRun: (req) => call('rollback_run', { req }),
    runArtifacts: (req) => call('run_artifacts', { req }),
    followEvents: followOverChannel,
    async pickWorkflowFile() {
      try {
        const picked = await open({
          multiple: false,
          directory: false,
          title: 'Open workflow',
          filters: [{ name: 'Workflow', extensions: ['dot'] }],
        });
        return typeof picked === 'string' ? picked : null;
      } catch (reason) {
        throw toApiError(reason);
      }
    },
  };
}
