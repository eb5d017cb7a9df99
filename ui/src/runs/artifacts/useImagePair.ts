import { useEffect, useState } from 'react';
import { failureMessage, isAbort } from '../fetchFailure';
import { loadImagePixels } from './imagePixels';
import type { RgbaImage } from './pixelDiff';

/** Two images' pixels, as loaded so far. */
export type ImagePair =
  | { status: 'loading' }
  | { status: 'loaded'; first: RgbaImage; second: RgbaImage }
  | { status: 'failed'; message: string };

type Answer = { key: string; result: ImagePair };

/** Loads the pixels of both images (again when either URL changes). */
export function useImagePair(firstUrl: string, secondUrl: string): ImagePair {
  const key = `${firstUrl}\n${secondUrl}`;
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([loadImagePixels(firstUrl, abort.signal), loadImagePixels(secondUrl, abort.signal)]).then(
      ([first, second]) => {
        if (!abort.signal.aborted) setAnswer({ key, result: { status: 'loaded', first, second } });
      },
      (reason: unknown) => {
        if (!abort.signal.aborted && !isAbort(reason)) {
          setAnswer({ key, result: { status: 'failed', message: failureMessage(reason) } });
        }
      },
    );
    return () => abort.abort();
  }, [key, firstUrl, secondUrl]);
  return answer !== null && answer.key === key ? answer.result : { status: 'loading' };
}
