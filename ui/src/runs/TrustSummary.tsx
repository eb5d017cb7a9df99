import type { WorkflowTrust } from '../generated/WorkflowTrust';

/**
 * What an untrusted workflow will do, with the checkbox that trusts it: the Start-run
 * dialog shows it before the workflow's commands and agents run for the first time.
 */
export function TrustSummary({
  trust,
  consented,
  onConsent,
}: {
  trust: WorkflowTrust;
  consented: boolean;
  onConsent: (consented: boolean) => void;
}) {
  return (
    <section className="trust-summary" data-testid="trust-summary" aria-label="What this workflow will do">
      <p className="trust-summary__lead">
        This workflow has not been trusted on this machine yet (or it changed since). Running it will:
      </p>
      <ul className="trust-summary__items">
        {trust.items.map((item, index) => (
          <li key={index} data-kind={item.kind}>
            {item.title}
            {item.detail !== null && item.detail !== '' ? <pre className="trust-summary__detail">{item.detail}</pre> : null}
          </li>
        ))}
      </ul>
      {trust.warning !== null ? <p className="banner is-warning">{trust.warning}</p> : null}
      <label className="start-run__check">
        <input type="checkbox" checked={consented} onChange={(e) => onConsent(e.target.checked)} /> Trust this workflow and run
      </label>
    </section>
  );
}
