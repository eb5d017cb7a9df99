import { useEffect, useState } from 'react';

/** The current time (epoch ms), updated every `everyMs` while `ticking`. */
export function useNow(everyMs: number, ticking = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, ticking]);
  return now;
}
