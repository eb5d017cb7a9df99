import type { AttrEntry } from '../generated/AttrEntry';
import type { RunEvent } from '../api/runEvent';

/**
 * A run's budget as the forms edit it: the most its LLM calls may cost (US dollars) and the
 * most input plus output tokens they may use; `null`: no limit.
 */
export type Budget = { max_cost_usd: number | null; max_tokens: number | null };

/** The two fields of a budget form, as typed. */
export type BudgetFields = { maxCost: string; maxTokens: string };

/** A budget form's fields read: the limits to send, or what is wrong with each field. */
export type ParsedBudget =
  | { ok: true; budget: Budget }
  | { ok: false; costError: string | null; tokensError: string | null };

const NO_BUDGET: Budget = { max_cost_usd: null, max_tokens: null };

function numberAttr(attrs: readonly AttrEntry[], key: string): number | null {
  const found = attrs.find((a) => a.canonical === key);
  if (found === undefined) return null;
  const { value } = found;
  return value.type === 'integer' || value.type === 'float' ? value.value : null;
}

/** The graph's own limits (its `max_cost_usd` and `max_tokens` attributes), when set. */
export function graphBudget(attrs: readonly AttrEntry[]): Budget {
  const cost = numberAttr(attrs, 'max_cost_usd');
  const tokens = numberAttr(attrs, 'max_tokens');
  return {
    max_cost_usd: cost !== null && cost > 0 ? cost : null,
    max_tokens: tokens !== null && tokens > 0 && Number.isInteger(tokens) ? tokens : null,
  };
}

/** A form's first values: `budget`'s limits, empty where there is none. */
export function budgetFields(budget: Budget): BudgetFields {
  return {
    maxCost: budget.max_cost_usd === null ? '' : String(budget.max_cost_usd),
    maxTokens: budget.max_tokens === null ? '' : String(budget.max_tokens),
  };
}

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;
const WHOLE = /^\d+$/;

function costError(text: string): string | null {
  if (text === '') return null;
  const usd = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(usd) || usd <= 0) return 'Max cost must be a positive amount of US dollars, like 2.50.';
  return null;
}

function tokensError(text: string): string | null {
  if (text === '') return null;
  const tokens = Number(text);
  if (!WHOLE.test(text) || tokens <= 0 || !Number.isSafeInteger(tokens)) return 'Max tokens must be a positive whole number, like 200000.';
  return null;
}

/** Reads a budget form: an empty field is no limit; anything else must be a positive number. */
export function parseBudget(fields: BudgetFields): ParsedBudget {
  const cost = fields.maxCost.trim().replace(/^\$/, '');
  const tokens = fields.maxTokens.trim().replace(/[_,]/g, '');
  const errors = { costError: costError(cost), tokensError: tokensError(tokens) };
  if (errors.costError !== null || errors.tokensError !== null) return { ok: false, ...errors };
  return {
    ok: true,
    budget: { max_cost_usd: cost === '' ? null : Number(cost), max_tokens: tokens === '' ? null : Number(tokens) },
  };
}

/** The limits the run's latest start or resume ran under, as its `run.started` recorded them. */
export function recordedBudget(events: readonly RunEvent[]): Budget {
  let found: Budget = NO_BUDGET;
  for (const event of events) {
    if (event.event === 'run.started') {
      found = { max_cost_usd: event.properties.max_cost_usd ?? null, max_tokens: event.properties.max_tokens ?? null };
    }
  }
  return found;
}

/** Whether the run's budget stopped it (a resume can raise the budget). */
export function stoppedByBudget(failureReason: string | null): boolean {
  return failureReason !== null && failureReason.startsWith('budget exceeded');
}

/** A budget for a person to read: `$2.5 · 200,000 tokens`; `null` when there is no limit. */
export function formatBudget(budget: Budget): string | null {
  const parts: string[] = [];
  if (budget.max_cost_usd !== null) parts.push(`$${budget.max_cost_usd}`);
  if (budget.max_tokens !== null) parts.push(`${budget.max_tokens.toLocaleString('en-US')} tokens`);
  return parts.length === 0 ? null : parts.join(' · ');
}
