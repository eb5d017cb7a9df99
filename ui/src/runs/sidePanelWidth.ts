/**
 * How wide the stage panel beside a run's graph and timeline is: the width the person
 * dragged it to, remembered in localStorage, kept within what leaves both sides usable.
 */

/** Where the width is remembered between sessions. */
export const SIDE_WIDTH_STORAGE_KEY = 'heddle.runSideWidth';
/** The width before the person chooses one. */
export const DEFAULT_SIDE_WIDTH = 460;
/** Narrower than this, the stage tabs and facts no longer fit. */
export const MIN_SIDE_WIDTH = 300;
/** The graph and timeline keep at least this much of the width. */
export const MIN_MAIN_WIDTH = 360;
/** How far one arrow key press moves the splitter. */
export const KEY_STEP = 24;

/** `width` within the bounds, for a run body `available` pixels wide (unknown: 0). */
export function clampSideWidth(width: number, available: number): number {
  const max = available > 0 ? Math.max(MIN_SIDE_WIDTH, available - MIN_MAIN_WIDTH) : Number.POSITIVE_INFINITY;
  return Math.round(Math.min(max, Math.max(MIN_SIDE_WIDTH, width)));
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled
  }
}

/** The remembered width, else the default. */
export function rememberedSideWidth(store: Pick<Storage, 'getItem'> | null = storage()): number {
  const stored = Number(store?.getItem(SIDE_WIDTH_STORAGE_KEY) ?? Number.NaN);
  return Number.isFinite(stored) && stored >= MIN_SIDE_WIDTH ? Math.round(stored) : DEFAULT_SIDE_WIDTH;
}

/** Remembers `width` for the next run screen and the next session. */
export function rememberSideWidth(width: number, store: Pick<Storage, 'setItem'> | null = storage()): void {
  try {
    store?.setItem(SIDE_WIDTH_STORAGE_KEY, String(Math.round(width)));
  } catch {
    // Full or disabled storage: the width holds until the page is reloaded.
  }
}
