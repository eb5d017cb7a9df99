import { createContext, useContext, type ReactNode } from 'react';

const WorkflowPathContext = createContext<string | null>(null);

/** Tells the inspector which file is open, so `@file` values can be resolved against it. */
export function WorkflowPathProvider({ path, children }: { path: string; children: ReactNode }) {
  return <WorkflowPathContext.Provider value={path}>{children}</WorkflowPathContext.Provider>;
}

/** The open workflow's path, or null outside a `WorkflowPathProvider`. */
export function useWorkflowPath(): string | null {
  return useContext(WorkflowPathContext);
}
