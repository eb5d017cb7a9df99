import { createContext, useContext } from 'react';
import type { CanvasSelection } from '../flow/elementIds';

/** Lets parts of the canvas outside React Flow's click handling (edge label chips) select. */
export const SelectionContext = createContext<(selection: CanvasSelection) => void>(() => {});

export function useSelect(): (selection: CanvasSelection) => void {
  return useContext(SelectionContext);
}
