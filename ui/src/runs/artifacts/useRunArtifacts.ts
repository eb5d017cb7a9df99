import type { Api } from '../../api/Api';
import { type ApiRead, useApiRead } from '../../api/useApiRead';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import type { RunRef } from '../../generated/RunRef';

const listArtifacts = (api: Api, request: RunRef) => api.runArtifacts(request);

/** Lists the run's artifacts, again whenever `refreshKey` changes. */
export function useRunArtifacts(runId: string, refreshKey: unknown): ApiRead<ListedArtifact[]> {
  return useApiRead({ run_id: runId }, listArtifacts, refreshKey);
}
