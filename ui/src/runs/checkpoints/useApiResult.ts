import { useEffect, useState } from 'react';
import type { Api } from '../../api/Api';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ApiError } from '../../generated/ApiError';

/** An API answer as loaded so far; `previous` is the last value this hook loaded, if any. */
export type ApiResult<T> =
  | { status: 'loading'; previous: T | null }
  | { status: 'loaded'; value: T }
  | { status: 'failed'; error: ApiError };

/** The latest answer, with the request and refresh it answers. */
type Answer<T> = {
  key: string;
  refresh: unknown;
  outcome: { ok: true; value: T } | { ok: false; error: ApiError };
};

/**
 * Calls `call(api, request)` whenever `request` (compared by value) or `refresh` changes,
 * keeping only the answer to the latest request. `call` should be defined at module level
 * so it stays the same between renders. A null request loads nothing.
 */
export function useApiResult<Req, T>(
  request: Req | null,
  call: (api: Api, request: Req) => Promise<T>,
  refresh: unknown = null,
): ApiResult<T> {
  const api = useApi();
  const key = request === null ? null : JSON.stringify(request);
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [previous, setPrevious] = useState<T | null>(null);

  useEffect(() => {
    if (key === null) return;
    let live = true;
    call(api, JSON.parse(key) as Req).then(
      (value) => {
        if (!live) return;
        setAnswer({ key, refresh, outcome: { ok: true, value } });
        setPrevious(value);
      },
      (reason: unknown) => {
        if (live) setAnswer({ key, refresh, outcome: { ok: false, error: toApiError(reason) } });
      },
    );
    return () => {
      live = false;
    };
  }, [api, call, key, refresh]);

  if (answer === null || answer.key !== key || !Object.is(answer.refresh, refresh)) {
    return { status: 'loading', previous };
  }
  return answer.outcome.ok
    ? { status: 'loaded', value: answer.outcome.value }
    : { status: 'failed', error: answer.outcome.error };
}
