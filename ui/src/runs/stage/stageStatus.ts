/** What a stage's `status.json` says, as far as the stage detail shows it. */
export type StageStatusFile = {
  status: string;
  notes: string;
  failureReason: string | null;
  failureClass: string | null;
  model: string | null;
  costUsd: number | null;
  usage: Record<string, number>;
  filesTouched: string[];
  contextUpdates: Record<string, unknown>;
  preferredLabel: string | null;
  suggestedNextIds: string[];
  attempts: number;
  durationMs: number | null;
};

function field(record: Record<string, unknown>, key: string): unknown {
  return record[key];
}

function stringOr(value: unknown, fallback: string | null): string | null {
  return typeof value === 'string' ? value : fallback;
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses `status.json`; throws with a readable message when it is not a JSON object. */
export function parseStageStatus(text: string): StageStatusFile {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error('status.json does not hold a JSON object');
  const usage: Record<string, number> = {};
  const rawUsage = field(value, 'usage');
  if (isRecord(rawUsage)) {
    for (const [key, n] of Object.entries(rawUsage)) if (typeof n === 'number') usage[key] = n;
  }
  const files = field(value, 'files_touched');
  const next = field(value, 'suggested_next_ids');
  const updates = field(value, 'context_updates');
  return {
    status: stringOr(field(value, 'status'), 'unknown') ?? 'unknown',
    notes: stringOr(field(value, 'notes'), '') ?? '',
    failureReason: stringOr(field(value, 'failure_reason'), null),
    failureClass: stringOr(field(value, 'failure_class'), null),
    model: stringOr(field(value, 'model'), null),
    costUsd: numberOr(field(value, 'cost_usd')),
    usage,
    filesTouched: Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [],
    contextUpdates: isRecord(updates) ? updates : {},
    preferredLabel: stringOr(field(value, 'preferred_label'), null),
    suggestedNextIds: Array.isArray(next) ? next.filter((f): f is string => typeof f === 'string') : [],
    attempts: numberOr(field(value, 'attempts')) ?? 1,
    durationMs: numberOr(field(value, 'duration_ms')),
  };
}
