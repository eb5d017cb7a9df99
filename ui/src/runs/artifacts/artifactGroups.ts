import type { ListedArtifact } from '../../generated/ListedArtifact';

/** The artifacts one stage folder captured (every retry of it). */
export interface StageGroup {
  stage: string;
  node: string;
  artifacts: ListedArtifact[];
}

/** One Playwright HTML report: the page to open and every file that belongs to it. */
export interface PlaywrightReport {
  /** The report's folder, relative to the run's `artifacts/` (`browser/retry_0/playwright-report`). */
  root: string;
  /** Its page (`index.html`). */
  entry: ListedArtifact;
  /** All its files, the page included. */
  files: ListedArtifact[];
}

/** A run's artifacts as the viewer shows them, each list in the order given. */
export interface ArtifactSections {
  screenshots: ListedArtifact[];
  videos: ListedArtifact[];
  junit: ListedArtifact[];
  reports: PlaywrightReport[];
  /** Traces, report files without a page, and anything else. */
  other: ListedArtifact[];
}

/** The last segment of a `/`-separated path. */
export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** "unit-visit_2", or "unit-visit_2 · retry 1" for a later attempt. */
export function stageLabel(artifact: Pick<ListedArtifact, 'stage' | 'retry'>): string {
  return artifact.retry > 0 ? `${artifact.stage} · retry ${artifact.retry}` : artifact.stage;
}

/** A size for people: "812 B", "14.2 KB", "3.1 MB" (1 KB = 1024 B). */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** Artifacts by stage folder, stages in the order they first appear. */
export function groupByStage(artifacts: readonly ListedArtifact[]): StageGroup[] {
  const groups = new Map<string, StageGroup>();
  for (const artifact of artifacts) {
    const group = groups.get(artifact.stage);
    if (group === undefined) groups.set(artifact.stage, { stage: artifact.stage, node: artifact.node, artifacts: [artifact] });
    else group.artifacts.push(artifact);
  }
  return [...groups.values()];
}

/** The folder a report file lies in, up to and including its `playwright-report` segment. */
function reportRoot(path: string): string | null {
  const segments = path.split('/');
  const at = segments.indexOf('playwright-report');
  return at < 0 ? null : segments.slice(0, at + 1).join('/');
}

function reportEntry(root: string, files: readonly ListedArtifact[]): ListedArtifact | undefined {
  const inRoot = files.filter((f) => f.path.startsWith(`${root}/`) && !f.path.slice(root.length + 1).includes('/'));
  return (
    inRoot.find((f) => fileName(f.path) === 'index.html') ??
    inRoot.find((f) => /\.html?$/i.test(f.path))
  );
}

/** Sorts artifacts into the viewer's sections by kind; report files are gathered per report. */
export function groupByKind(artifacts: readonly ListedArtifact[]): ArtifactSections {
  const sections: ArtifactSections = { screenshots: [], videos: [], junit: [], reports: [], other: [] };
  const reportFiles = new Map<string, ListedArtifact[]>();
  for (const artifact of artifacts) {
    switch (artifact.kind) {
      case 'screenshot':
        sections.screenshots.push(artifact);
        break;
      case 'video':
        sections.videos.push(artifact);
        break;
      case 'junit':
        sections.junit.push(artifact);
        break;
      case 'playwright_report': {
        const root = reportRoot(artifact.path) ?? artifact.path.slice(0, artifact.path.lastIndexOf('/'));
        const files = reportFiles.get(root);
        if (files === undefined) reportFiles.set(root, [artifact]);
        else files.push(artifact);
        break;
      }
      case 'trace':
      case 'other':
        sections.other.push(artifact);
        break;
    }
  }
  for (const [root, files] of reportFiles) {
    const entry = reportEntry(root, files);
    if (entry === undefined) for (const file of files) sections.other.push(file);
    else sections.reports.push({ root, entry, files });
  }
  return sections;
}

/**
 * Screenshots to compare `shot` with: those of other stages or retries captured from the
 * same path in the work folder, then those with the same file name; each in the order given.
 */
export function comparableShots(artifacts: readonly ListedArtifact[], shot: ListedArtifact): ListedArtifact[] {
  const others = artifacts.filter(
    (a) => a.kind === 'screenshot' && a.path !== shot.path && (a.stage !== shot.stage || a.retry !== shot.retry),
  );
  const name = fileName(shot.source);
  const sameSource = others.filter((a) => a.source === shot.source);
  const sameName = others.filter((a) => a.source !== shot.source && fileName(a.source) === name);
  return [...sameSource, ...sameName];
}
