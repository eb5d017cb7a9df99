import { useSyncExternalStore } from 'react';
import { isLayoutEngineName, type LayoutEngineName } from './layoutEngines';

/** Where the choice is remembered between sessions. */
export const LAYOUT_ENGINE_STORAGE_KEY = 'heddle.layoutEngine';
const DEFAULT_ENGINE: LayoutEngineName = 'elk';

let chosen: LayoutEngineName | null = null;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled
  }
}

/** The layout engine the person picked (remembered in localStorage), ELK by default. */
export function chosenLayoutEngine(): LayoutEngineName {
  if (chosen === null) {
    const stored = storage()?.getItem(LAYOUT_ENGINE_STORAGE_KEY);
    chosen = isLayoutEngineName(stored) ? stored : DEFAULT_ENGINE;
  }
  return chosen;
}

/** Picks the layout engine for every canvas from now on, and remembers it. */
export function chooseLayoutEngine(engine: LayoutEngineName): void {
  if (engine === chosenLayoutEngine()) return;
  chosen = engine;
  try {
    storage()?.setItem(LAYOUT_ENGINE_STORAGE_KEY, engine);
  } catch {
    // Full or disabled storage: the choice holds until the page is reloaded.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen layout engine; re-renders when the choice changes. */
export function useChosenLayoutEngine(): LayoutEngineName {
  return useSyncExternalStore(subscribe, chosenLayoutEngine, () => DEFAULT_ENGINE);
}
