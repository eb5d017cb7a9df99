import type { RollbackReport } from '../../generated/RollbackReport';
import { shortSha } from './format';
import { PathList } from './PathList';

/** What a finished rollback did: files written and deleted, the new timeline, the snapshot. */
export function RollbackReportView({ report }: { report: RollbackReport }) {
  return (
    <div className="rollback-report" data-testid="rollback-report">
      <p>
        Rolled back to <code>{shortSha(report.target)}</code>. The run continues on timeline{' '}
        <code>{report.timeline}</code>; resume it to run{' '}
        {report.next_node !== null ? (
          <>
            from <code>{report.next_node}</code>
          </>
        ) : (
          'from its start node'
        )}
        .
      </p>
      {report.written.length + report.deleted.length === 0 ? (
        <p className="confirm-dialog__note">No files in the work folder changed.</p>
      ) : null}
      <PathList title="Files written" paths={report.written} testId="rollback-written" />
      <PathList title="Files deleted" paths={report.deleted} testId="rollback-report-deleted" />
      <p>
        The work folder as it was before is kept in the recovery snapshot <code>{report.recovery_ref}</code> (
        <code>{shortSha(report.recovery_sha)}</code>).
      </p>
    </div>
  );
}
