import type { Api } from '../../api/Api';
import { isRunEvent, type RunEvent } from '../../api/runEvent';
import type { RunEventsRequest } from '../../generated/RunEventsRequest';
import type { TimelineStage } from '../../generated/TimelineStage';
import { TranscriptBuilder } from '../transcript';

/** Most events read for one stage of a long run (its own, then a few of the next stages'). */
export const STAGE_PAGE_EVENTS = 2_000;

/** A stage's events read from the run index, and the transcripts they make. */
export type StageHistory = { events: readonly RunEvent[]; transcripts: TranscriptBuilder };

/**
 * Whether a stage's events must be read for it: the run screen holds only a long run's tail
 * (`tailFrom` > 0, see LONG_HISTORY_EVENTS), and a stage that has ended may lie before it.
 * A running stage's events are the tail's.
 */
export function stageNeedsHistory(stage: TimelineStage, tailFrom: number): boolean {
  return tailFrom > 0 && stage.ended_at !== null;
}

/** The page of events that starts when `stage` started. */
export function stageHistoryRequest(runId: string, stage: TimelineStage): RunEventsRequest {
  return { run_id: runId, after_seq: 0, since: stage.started_at, limit: STAGE_PAGE_EVENTS };
}

/** Folds a page of events (as the API answers them) into a stage's history. */
export function stageHistoryOf(page: readonly unknown[]): StageHistory {
  const events: RunEvent[] = [];
  const transcripts = new TranscriptBuilder();
  for (const value of page) {
    if (!isRunEvent(value)) continue;
    transcripts.apply(value);
    events.push(value);
  }
  return { events, transcripts };
}

/** Reads a stage's page of events (a `useApiRead` reader). */
export async function readStageHistory(api: Api, request: RunEventsRequest): Promise<StageHistory> {
  const page = await api.runEvents(request);
  return stageHistoryOf(page.events);
}
