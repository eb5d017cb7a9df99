import { fetchFailure } from '../fetchFailure';
import type { RgbaImage } from './pixelDiff';

function decode(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image could not be decoded.'));
    image.src = src;
  });
}

/**
 * The pixels of the image at `url`. The file is fetched and drawn from a `blob:` URL, so the
 * canvas stays readable whatever origin served it (the fetch itself must be allowed).
 */
export async function loadImagePixels(url: string, signal?: AbortSignal): Promise<RgbaImage> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(await fetchFailure(response));
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  try {
    const image = await decode(objectUrl);
    const width = image.naturalWidth;
    const height = image.naturalHeight;
    if (width === 0 || height === 0) return { width, height, data: new Uint8ClampedArray(0) };
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (context === null) throw new Error('This window cannot draw to a canvas.');
    context.drawImage(image, 0, 0);
    return { width, height, data: context.getImageData(0, 0, width, height).data };
  } finally {
    URL.revokeObjectURL(objectUrl);
  }
}
