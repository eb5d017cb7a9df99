import type { Api } from '../api/Api';
import { useApiRead } from '../api/useApiRead';
import type { LaunchInfo } from '../generated/LaunchInfo';

const readLaunchInfo = (api: Api) => api.launchInfo();

/** What the app was launched with; `undefined` while loading, null when it could not be read. */
export function useLaunchInfo(): LaunchInfo | null | undefined {
  const read = useApiRead({}, readLaunchInfo);
  if (read.state === 'loading') return undefined;
  return read.state === 'ready' ? read.value : null;
}
