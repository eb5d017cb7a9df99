import { useEffect, useMemo, useState } from 'react';
import type { Api } from '../api/Api';
import type { RunEvent } from '../api/runEvent';
import { browserTimers, type FollowState, RunFollower } from './runFollower';
import type { TranscriptBuilder } from './transcript';

/** A run followed live: its record, timeline, every event, progress and transcripts. */
export type FollowedRun = FollowState & {
  /** Every event after `tailFrom` but live output, in `seq` order (grows in place; do not mutate). */
  events: readonly RunEvent[];
  transcripts: TranscriptBuilder;
  /** Fetch record and timeline again now (after a rollback or resume). */
  refresh(): void;
};

/**
 * Follows a run with a {@link RunFollower} (which holds all the scheduling): record and
 * timeline load once per `followKey`; events stream once the first timeline has loaded (or
 * failed to), unless `holdEvents` is true.
 */
export function useRunFollow(api: Api, runId: string, followKey: number, holdEvents = false): FollowedRun {
  const [state, setState] = useState<FollowState | null>(null);
  const follower = useMemo(() => new RunFollower(api, runId, browserTimers, setState), [api, runId]);
  useEffect(() => () => follower.dispose(), [follower]);

  // Record and timeline load once per follow; releasing held events does not load them again.
  useEffect(() => {
    follower.load();
  }, [follower, followKey]);

  const shown = state ?? follower.current();
  // The first record and timeline come before the events too: a long run's timeline takes the
  // server a while, and streaming its 100,000 events meanwhile would make it longer.
  const loading = shown.timeline === null && shown.error === null;
  const hold = holdEvents || loading;
  useEffect(() => {
    // Held back, the events start once the caller is ready: thousands of them arrive as as many
    // tasks, and a response due meanwhile (the run's graph) would wait behind them all.
    if (hold) {
      follower.reset();
      return;
    }
    follower.follow();
    return () => follower.stop();
  }, [follower, followKey, hold]);

  return { ...shown, events: follower.events, transcripts: follower.transcripts, refresh: follower.load };
}
