import type { Api } from '../../api/Api';
import type { CheckpointFileRequest } from '../../generated/CheckpointFileRequest';
import type { CheckpointRef } from '../../generated/CheckpointRef';
import type { DiffRequest } from '../../generated/DiffRequest';
import type { RunRef } from '../../generated/RunRef';

// The reads the checkpoint browser makes, as stable readers for `useApiRead`.

/** Every checkpoint of a run, across its timelines. */
export const loadCheckpoints = (api: Api, req: RunRef) => api.runCheckpoints(req);
/** The files at a checkpoint. */
export const loadCheckpointFiles = (api: Api, req: CheckpointRef) => api.checkpointFiles(req);
/** One file at a checkpoint. */
export const loadCheckpointFile = (api: Api, req: CheckpointFileRequest) => api.checkpointFile(req);
/** The state (context values, log) a checkpoint saved. */
export const loadCheckpointState = (api: Api, req: CheckpointRef) => api.checkpointState(req);
/** The diff between two checkpoints. */
export const loadCheckpointDiff = (api: Api, req: DiffRequest) => api.checkpointDiff(req);
/** The run's record (its work folder and checkpoint mode). */
export const loadRun = (api: Api, req: RunRef) => api.getRun(req);
