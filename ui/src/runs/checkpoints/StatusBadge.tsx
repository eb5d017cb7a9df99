/** Which colour a checkpoint's node status gets. */
function tone(status: string): string {
  if (status === 'success' || status === 'completed') return 'is-success';
  if (status === 'fail' || status === 'error') return 'is-fail';
  if (status === 'partial_success' || status === 'retry') return 'is-partial';
  return 'is-other';
}

/** A node status (`success`, `fail`, `partial_success`, `skipped`…) as a small coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`checkpoint-badge ${tone(status)}`}>{status.replaceAll('_', ' ')}</span>;
}

/** The badge on the checkpoint the run continues from. */
export function CurrentBadge() {
  return (
    <span className="checkpoint-badge is-current" title="The tip of the timeline the run continues on">
      current
    </span>
  );
}
