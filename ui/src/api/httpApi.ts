import type { Api } from './Api';
import { toApiError } from './apiError';

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

/** The API over HTTP, same-origin with the page unless `baseUrl` says otherwise. */
export function createHttpApi(baseUrl = ''): Api {
  return {
    hasFileDialog: false,
    launchInfo: () => post(baseUrl, 'launch_info', {}),
    openWorkflow: (req) => post(baseUrl, 'open_workflow', req),
    checkWorkflow: (req) => post(baseUrl, 'check_workflow', req),
    listWorkflows: (req) => post(baseUrl, 'list_workflows', req),
    pickWorkflowFile: () => Promise.resolve(null),
  };
}
