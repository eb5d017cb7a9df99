import type { WorkflowTrust } from '../generated/WorkflowTrust';

/**
 * Whether starting needs the person's consent first: the workflow is not trusted, and the
 * consent given (if any) was for other content than what is on disk now. (What the workflow
 * will do comes worded from heddle-api as `trust.items`.)
 */
export function needsConsent(trust: WorkflowTrust, consentedDigest: string | null): boolean {
  return !trust.trusted && consentedDigest !== trust.digest;
}
