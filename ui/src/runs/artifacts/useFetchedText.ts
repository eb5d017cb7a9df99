import { useEffect, useState } from 'react';
import { failureMessage, fetchFailure, isAbort } from '../fetchFailure';

/** A text file fetched from a URL, as loaded so far. */
export type FetchedText =
  | { status: 'loading' }
  | { status: 'loaded'; text: string }
  | { status: 'failed'; message: string };

type Answer = { url: string; result: FetchedText };

/** Fetches `url` as text (again whenever it changes); a superseded fetch is aborted. */
export function useFetchedText(url: string): FetchedText {
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    const settle = (result: FetchedText) => {
      if (!abort.signal.aborted) setAnswer({ url, result });
    };
    fetch(url, { signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) settle({ status: 'failed', message: await fetchFailure(response) });
        else settle({ status: 'loaded', text: await response.text() });
      })
      .catch((reason: unknown) => {
        if (!isAbort(reason)) settle({ status: 'failed', message: failureMessage(reason) });
      });
    return () => abort.abort();
  }, [url]);
  return answer !== null && answer.url === url ? answer.result : { status: 'loading' };
}
