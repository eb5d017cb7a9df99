import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiError } from '../generated/ApiError';
import type { Api } from './Api';
import { useApi } from './ApiContext';
import { toApiError } from './apiError';

/**
 * A read from the API as it stands. While loading, `previous` is the last value this hook
 * read (for any request), so a screen can keep showing it instead of blanking out.
 */
export type ApiRead<T> =
  | { state: 'loading'; previous: T | null }
  | { state: 'ready'; value: T }
  | { state: 'failed'; error: ApiError };

/**
 * Reads one answer. `signal` aborts once the answer is no longer wanted. Define readers at
 * module level so they stay the same between renders (a new reader reads again).
 */
export type Reader<Req, T> = (api: Api, request: Req, signal: AbortSignal) => Promise<T>;

/** What an answer answered: a read is current only while all of these are unchanged. */
type Asked<Req, T> = { api: Api; read: Reader<Req, T>; key: string; refresh: unknown; reloads: number };

type Answer<Req, T> = {
  asked: Asked<Req, T>;
  outcome: { ok: true; value: T } | { ok: false; error: ApiError };
  /** The last value read, kept across requests and failures. */
  last: T | null;
};

function sameAsk<Req, T>(a: Asked<Req, T>, b: Asked<Req, T>): boolean {
  return a.api === b.api && a.read === b.read && a.key === b.key && Object.is(a.refresh, b.refresh) && a.reloads === b.reloads;
}

/**
 * The one way the UI reads from the API: calls `read(api, request)` and again whenever the
 * request (compared by value, so it must be JSON), `refresh` or `read` changes, or `reload()`
 * is called. Only the answer to the latest ask counts: an earlier answer arriving late is
 * dropped, and its `signal` aborted. A null request reads nothing and stays loading.
 */
export function useApiRead<Req, T>(
  request: Req | null,
  read: Reader<Req, T>,
  refresh: unknown = null,
): ApiRead<T> & { reload: () => void } {
  const api = useApi();
  const key = request === null ? null : JSON.stringify(request);
  const [reloads, setReloads] = useState(0);
  const [answer, setAnswer] = useState<Answer<Req, T> | null>(null);

  useEffect(() => {
    if (key === null) return;
    const asked: Asked<Req, T> = { api, read, key, refresh, reloads };
    const abort = new AbortController();
    const settle = (outcome: Answer<Req, T>['outcome']) => {
      if (abort.signal.aborted) return;
      setAnswer((before) => ({ asked, outcome, last: outcome.ok ? outcome.value : (before?.last ?? null) }));
    };
    read(api, JSON.parse(key) as Req, abort.signal).then(
      (value) => settle({ ok: true, value }),
      (reason: unknown) => settle({ ok: false, error: toApiError(reason) }),
    );
    return () => abort.abort();
  }, [api, read, key, refresh, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  return useMemo(() => {
    const current = key !== null && answer !== null && sameAsk(answer.asked, { api, read, key, refresh, reloads });
    if (!current || answer === null) return { state: 'loading', previous: answer?.last ?? null, reload };
    return answer.outcome.ok
      ? { state: 'ready', value: answer.outcome.value, reload }
      : { state: 'failed', error: answer.outcome.error, reload };
  }, [answer, api, read, key, refresh, reloads, reload]);
}

/** The value to show: the answer when ready, the previous one while loading, else null. */
export function shownValue<T>(result: ApiRead<T>): T | null {
  if (result.state === 'ready') return result.value;
  return result.state === 'loading' ? result.previous : null;
}
