import { createContext, useContext } from 'react';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import type { SavedRunFile } from '../../generated/SavedRunFile';

/** Saves a copy of an artifact into the user's Downloads folder; null where links download. */
export type SaveArtifact = ((artifact: ListedArtifact) => Promise<SavedRunFile>) | null;

/** Provided by the artifacts view for the Download buttons below it. */
export const SaveArtifactContext = createContext<SaveArtifact>(null);

/** The nearest artifacts view's way to save a copy (null: use a download link). */
export const useSaveArtifact = (): SaveArtifact => useContext(SaveArtifactContext);
