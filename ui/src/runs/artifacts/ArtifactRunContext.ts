import { createContext, useContext } from 'react';

/** The run whose artifacts are shown below (null outside an artifacts view). */
export const ArtifactRunContext = createContext<string | null>(null);

/** The run of the nearest artifacts view, or null. */
export const useArtifactRun = (): string | null => useContext(ArtifactRunContext);
