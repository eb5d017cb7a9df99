import type { ApiError } from '../generated/ApiError';
import type { ErrorCode } from '../generated/ErrorCode';

const ERROR_CODES: readonly ErrorCode[] = [
  'not_found',
  'wrong_kind',
  'too_large',
  'not_text',
  'io',
  'invalid_request',
];

/** True when `value` is an `ApiError` as the backend sends it. */
export function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false;
  const code: unknown = Reflect.get(value, 'code');
  const message: unknown = Reflect.get(value, 'message');
  return (
    typeof code === 'string' &&
    (ERROR_CODES as readonly string[]).includes(code) &&
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
