import type { ApiError } from '../generated/ApiError';
import type { ErrorCode } from '../generated/ErrorCode';

/** Every code the backend sends; a `Record` so the compiler flags a code added in Rust. */
const ERROR_CODES: Record<ErrorCode, true> = {
  not_found: true,
  wrong_kind: true,
  too_large: true,
  not_text: true,
  io: true,
  invalid_request: true,
  unauthorized: true,
  invalid_workflow: true,
  not_running: true,
  busy: true,
  changed_outside: true,
  ambiguous: true,
  storage: true,
  changed_on_disk: true,
  already_exists: true,
  untrusted_workflow: true,
};

/** True when `value` is an `ApiError` as the backend sends it. */
export function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false;
  const code: unknown = Reflect.get(value, 'code');
  const message: unknown = Reflect.get(value, 'message');
  return (
    typeof code === 'string' &&
    Object.hasOwn(ERROR_CODES, code) &&
    typeof message === 'string'
  );
}

/**
 * Turns anything a failed call rejected with into an `ApiError`, so callers handle one
 * shape. Transport failures (server gone, bad JSON) become `io` errors.
 */
export function toApiError(reason: unknown): ApiError {
  if (isApiError(reason)) return reason;
  if (reason instanceof Error) return { code: 'io', message: reason.message };
  if (typeof reason === 'string') return { code: 'io', message: reason };
  return { code: 'io', message: 'The request failed for an unknown reason.' };
}
