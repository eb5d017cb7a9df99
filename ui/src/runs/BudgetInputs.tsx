import { formatBudget, type Budget, type BudgetFields, type ParsedBudget } from './runBudget';
import './start-run.css';

/**
 * The two budget rows of a run form (inside a `start-run__grid`): "Max cost (USD)" and
 * "Max tokens", each with its own error; empty means no limit of the form's own, and
 * `fallback` (the workflow's limits: its run config's, else its graph's) says what still
 * applies then.
 */
export function BudgetInputs({
  idPrefix,
  fields,
  parsed,
  fallback,
  onChange,
}: {
  idPrefix: string;
  fields: BudgetFields;
  parsed: ParsedBudget;
  fallback: Budget;
  onChange: (fields: BudgetFields) => void;
}) {
  const costError = parsed.ok ? null : parsed.costError;
  const tokensError = parsed.ok ? null : parsed.tokensError;
  const costFallback = fields.maxCost.trim() === '' ? formatBudget({ max_cost_usd: fallback.max_cost_usd, max_tokens: null }) : null;
  const tokensFallback = fields.maxTokens.trim() === '' ? formatBudget({ max_cost_usd: null, max_tokens: fallback.max_tokens }) : null;
  return (
    <>
      <div className="start-run__row">
        <label htmlFor={`${idPrefix}-max-cost`}>Max cost (USD)</label>
        <input
          id={`${idPrefix}-max-cost`}
          className="input start-run__number"
          inputMode="decimal"
          value={fields.maxCost}
          onChange={(e) => onChange({ ...fields, maxCost: e.target.value })}
          placeholder="No limit"
          aria-invalid={costError !== null}
          aria-describedby={costError !== null ? `${idPrefix}-max-cost-error` : undefined}
          spellCheck={false}
        />
        {costError !== null ? (
          <p id={`${idPrefix}-max-cost-error`} className="start-run__hint is-error">
            {costError}
          </p>
        ) : costFallback !== null ? (
          <p className="start-run__hint muted">Empty: the workflow’s {costFallback} applies.</p>
        ) : null}
      </div>
      <div className="start-run__row">
        <label htmlFor={`${idPrefix}-max-tokens`}>Max tokens</label>
        <input
          id={`${idPrefix}-max-tokens`}
          className="input start-run__number"
          inputMode="numeric"
          value={fields.maxTokens}
          onChange={(e) => onChange({ ...fields, maxTokens: e.target.value })}
          placeholder="No limit"
          aria-invalid={tokensError !== null}
          aria-describedby={tokensError !== null ? `${idPrefix}-max-tokens-error` : undefined}
          spellCheck={false}
        />
        {tokensError !== null ? (
          <p id={`${idPrefix}-max-tokens-error`} className="start-run__hint is-error">
            {tokensError}
          </p>
        ) : tokensFallback !== null ? (
          <p className="start-run__hint muted">Empty: the workflow’s {tokensFallback} applies.</p>
        ) : null}
      </div>
    </>
  );
}
