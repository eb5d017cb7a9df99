import { useSyncExternalStore } from 'react';
import { isLayoutEngineName, type LayoutEngineName } from './layoutEngines';

/** Where the choice is remembered between sessions. */
export const LAYOUT_ENGINE_STORAGE_KEY = 'heddle.layoutEngine';

/** An engine, or `auto`: ELK for ordinary graphs, the layered engine for large ones (it lays
 * out a 300-node graph in tens of milliseconds, with no worker to start). */
export type LayoutChoice = LayoutEngineName | 'auto';
const DEFAULT_ENGINE: LayoutChoice = 'auto';

/** From this many nodes `auto` uses the layered engine. */
export const AUTO_LAYERED_FROM = 150;

export function isLayoutChoice(value: unknown): value is LayoutChoice {
  return value === 'auto' || isLayoutEngineName(value);
}

/** The engine that lays out a graph of `nodeCount` nodes under `choice`. */
export function engineFor(choice: LayoutChoice, nodeCount: number): LayoutEngineName {
  if (choice !== 'auto') return choice;
  return nodeCount >= AUTO_LAYERED_FROM ? 'layered' : 'elk';
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
