import { useEffect, useState } from 'react';
import type { Api } from '../api/Api';
import type { LaunchInfo } from '../generated/LaunchInfo';

/** What the app was launched with; `undefined` while loading, null when it could not be read. */
export function useLaunchInfo(api: Api): LaunchInfo | null | undefined {
  const [launch, setLaunch] = useState<LaunchInfo | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    api.launchInfo().then(
      (info) => {
        if (current) setLaunch(info);
      },
      () => {
        if (current) setLaunch(null);
      },
    );
    return () => {
      current = false;
    };
  }, [api]);
  return launch;
}
