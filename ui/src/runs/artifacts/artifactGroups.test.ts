import { describe, expect, it } from 'vitest';
import type { ArtifactKind } from '../../generated/ArtifactKind';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { comparableShots, fileName, formatBytes, groupByKind, groupByStage, stageLabel } from './artifactGroups';

function artifact(stage: string, source: string, kind: ArtifactKind, retry = 0): ListedArtifact {
  return {
    stage,
    node: stage.replace(/-visit_\d+$/, ''),
    retry,
    path: `${stage}/retry_${retry}/${source}`,
    source,
    size: 10,
    sha256: '0'.repeat(64),
    media_type: 'application/octet-stream',
    kind,
  };
}

// What examples/browser-check.dot leaves, in the order `run_artifacts` lists it.
const browserShot = artifact('browser', 'test-results/browser/home.png', 'screenshot');
const reportShot = artifact('browser', 'playwright-report/data/home.png', 'screenshot');
const reportPage = artifact('browser', 'playwright-report/index.html', 'playwright_report');
const trace = artifact('browser', 'test-results/browser/home.trace.zip', 'trace');
const browserJunit = artifact('browser', 'test-results/junit-browser.xml', 'junit');
const unitJunit = artifact('unit', 'test-results/junit-unit.xml', 'junit');
const unit2Junit = artifact('unit-visit_2', 'test-results/junit-unit.xml', 'junit');
const example = [browserShot, reportShot, reportPage, trace, browserJunit, unitJunit, unit2Junit];

describe('groupByStage', () => {
  it('keeps the stages in the order given', () => {
    const groups = groupByStage([unitJunit, browserShot, unit2Junit, trace]);
    expect(groups.map((g) => [g.stage, g.node, g.artifacts.length])).toEqual([
      ['unit', 'unit', 1],
      ['browser', 'browser', 2],
      ['unit-visit_2', 'unit', 1],
    ]);
  });
});

describe('groupByKind', () => {
  it('sorts the example run into sections', () => {
    const sections = groupByKind(example);
    expect(sections.screenshots).toEqual([browserShot, reportShot]);
    expect(sections.videos).toEqual([]);
    expect(sections.junit).toEqual([browserJunit, unitJunit, unit2Junit]);
    expect(sections.reports).toEqual([{ root: 'browser/retry_0/playwright-report', entry: reportPage, files: [reportPage] }]);
    expect(sections.other).toEqual([trace]);
  });

  it('gathers report files per report and keeps a report without a page with the other files', () => {
    const data = artifact('browser', 'playwright-report/data/abc.zip', 'playwright_report');
    const nested = artifact('e2e', 'out/playwright-report/trace/index.html', 'playwright_report');
    const orphan = artifact('e2e', 'out/playwright-report/data/x.json', 'playwright_report');
    const pageless = artifact('lint', 'playwright-report/data/y.json', 'playwright_report');
    const sections = groupByKind([data, reportPage, nested, orphan, pageless]);
    expect(sections.reports).toEqual([
      { root: 'browser/retry_0/playwright-report', entry: reportPage, files: [data, reportPage] },
    ]);
    expect(sections.other).toEqual([nested, orphan, pageless]);
  });
});

describe('comparableShots', () => {
  const unitShot = artifact('unit', 'shots/home.png', 'screenshot');
  const unit2Shot = artifact('unit-visit_2', 'shots/home.png', 'screenshot');
  const retryShot = artifact('unit', 'shots/home.png', 'screenshot', 1);
  const renamed = artifact('unit-visit_2', 'other/home.png', 'screenshot');
  const sameStage = artifact('unit', 'other/home.png', 'screenshot');
  const unrelated = artifact('unit-visit_2', 'shots/about.png', 'screenshot');
  const notShot = artifact('unit-visit_2', 'shots/home.png.txt', 'other');
  const all = [renamed, unitShot, sameStage, unit2Shot, unrelated, retryShot, notShot];

  it('offers the same source first, then the same file name, from other stages and retries', () => {
    expect(comparableShots(all, unitShot)).toEqual([unit2Shot, retryShot, renamed]);
  });

  it('offers nothing for a screenshot taken once', () => {
    expect(comparableShots(example, browserShot)).toEqual([]);
  });
});

describe('labels', () => {
  it('names files, stages and sizes', () => {
    expect(fileName('a/b/c.png')).toBe('c.png');
    expect(fileName('c.png')).toBe('c.png');
    expect(stageLabel({ stage: 'unit', retry: 0 })).toBe('unit');
    expect(stageLabel({ stage: 'unit', retry: 2 })).toBe('unit · retry 2');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(14_540)).toBe('14.2 KB');
    expect(formatBytes(3_250_000)).toBe('3.1 MB');
    expect(formatBytes(500 * 1024)).toBe('500 KB');
  });
});
