import type { WorkflowTrust } from '../generated/WorkflowTrust';

/** One thing an untrusted workflow will do, as the Start-run dialog lists it. */
export interface TrustItem {
  kind: 'command' | 'shell' | 'external' | 'outside' | 'child';
  /** What it is, in a sentence. */
  title: string;
  /** The script, command line or path to show in full (monospace), if any. */
  detail: string | null;
}

/** Lines of a script shown before the rest is elided. */
export const SCRIPT_LINES = 6;

/** The first `SCRIPT_LINES` lines of `script`, and how many more there are. */
export function scriptPreview(script: string): string {
  const lines = script.split('\n');
  if (lines.length <= SCRIPT_LINES) return script;
  const more = lines.length - SCRIPT_LINES;
  return `${lines.slice(0, SCRIPT_LINES).join('\n')}\n… (${more} more line${more === 1 ? '' : 's'})`;
}

/** What running the workflow will do, in the order the dialog lists it. */
export function trustItems(trust: WorkflowTrust): TrustItem[] {
  const { effects } = trust;
  const where = (workflow: string) => (workflow === trust.workflow_path ? '' : ` (in ${workflow})`);
  return [
    ...effects.commands.map((c): TrustItem => ({
      kind: 'command',
      title: `Runs the ${c.language} script of “${c.node_id}”${where(c.workflow)}`,
      detail: scriptPreview(c.script),
    })),
    ...effects.shell_agents.map((a): TrustItem => ({
      kind: 'shell',
      title: `Gives agent “${a.node_id}”${where(a.workflow)} a shell in ${trust.work_dir}`,
      detail: null,
    })),
    ...effects.external_agents.map((a): TrustItem => ({
      kind: 'external',
      title: `Starts the external agent (${a.backend}) of “${a.node_id}”${where(a.workflow)}`,
      detail: a.command,
    })),
    ...effects.outside_files.map((f): TrustItem => ({
      kind: 'outside',
      title: `Reads a file outside ${trust.folder} for “${f.node_id}” ${f.attribute}${where(f.workflow)}${
        f.through_symlink ? ', through a symlink' : ''
      }`,
      detail: f.resolved,
    })),
    ...effects.child_workflows.map((c): TrustItem => ({
      kind: 'child',
      title: `Runs the child workflow of “${c.node_id}”${where(c.workflow)}${c.problem !== null ? ` (${c.problem})` : ''}`,
      detail: c.path,
    })),
  ];
}

/**
 * Whether starting needs the person's consent first: the workflow is not trusted, and the
 * consent given (if any) was for other content than what is on disk now.
 */
export function needsConsent(trust: WorkflowTrust, consentedDigest: string | null): boolean {
  return !trust.trusted && consentedDigest !== trust.digest;
}
