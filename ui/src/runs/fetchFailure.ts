import { isApiError } from '../api/apiError';

/**
 * Why a fetch of a run's file failed, for people: the server's `ApiError` message when the
 * body is one, else the HTTP status.
 */
export async function fetchFailure(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (isApiError(body)) return body.message;
  } catch {
    // Not JSON: fall back to the status.
  }
  const status = `${response.status} ${response.statusText}`.trim();
  return `The file could not be loaded (HTTP ${status}).`;
}

/** A rejection's message, for people. */
export function failureMessage(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'The file could not be loaded.';
}

/** Whether `reason` is the rejection of an aborted fetch (nothing to report). */
export function isAbort(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'AbortError';
}
