import { useSyncExternalStore } from 'react';
import { isLayoutEngineName, type LayoutEngineName } from './layoutEngines';

/** Where the choice is remembered between sessions. */
export const LAYOUT_ENGINE_STORAGE_KEY = 'heddle.layoutEngine';

/** An engine, or `auto`: the layered engine, which runs in the page with no worker or wasm to
 * start, so a graph of any size is drawn soonest (a small one in about half the time ELK's
 * first layout takes, 300 nodes in tens of milliseconds). ELK and Graphviz stay a pick away. */
export type LayoutChoice = LayoutEngineName | 'auto';
const DEFAULT_ENGINE: LayoutChoice = 'auto';


export function isLayoutChoice(value: unknown): value is LayoutChoice {
  return value === 'auto' || isLayoutEngineName(value);
}

/** The engine that lays a graph out under `choice`. */
export function engineFor(choice: LayoutChoice): LayoutEngineName {
  return choice === 'auto' ? 'layered' : choice;
}

let chosen: LayoutChoice | null = null;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled
  }
}

/** The layout engine the person picked (remembered in localStorage), `auto` by default. */
export function chosenLayoutEngine(): LayoutChoice {
  if (chosen === null) {
    const stored = storage()?.getItem(LAYOUT_ENGINE_STORAGE_KEY);
    chosen = isLayoutChoice(stored) ? stored : DEFAULT_ENGINE;
  }
  return chosen;
}

/** Picks the layout engine for every canvas from now on, and remembers it. */
export function chooseLayoutEngine(engine: LayoutChoice): void {
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
export function useChosenLayoutEngine(): LayoutChoice {
  return useSyncExternalStore(subscribe, chosenLayoutEngine, () => DEFAULT_ENGINE);
}
