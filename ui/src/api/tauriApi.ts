import { invoke } from '@tauri-apps/api/core';
import { open } from '@tauri-apps/plugin-dialog';
import type { Api } from './Api';
import { toApiError } from './apiError';

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
