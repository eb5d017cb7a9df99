import { describe, expect, it } from 'vitest';
import type { TimelineStage } from '../../generated/TimelineStage';
import { stage, timeline } from './timelineFixture';
import { layoutTimeline } from './timelineLayout';
import { CLUSTER_ABOVE, CLUSTER_PX, barRows, firstEndingAfter, firstStartingAfter, visibleItems, type TrackItem } from './visibleBars';

/** A test → fix loop of `count` stages, each 10 ms long, 2 ms apart. */
function loop(count: number): TimelineStage[] {
  return Array.from({ length: count }, (_, i) =>
    stage(i % 2 === 0 ? 'test' : 'fix', i * 12, i * 12 + 10, {
      visit: Math.floor(i / 2) + 1,
      status: i % 2 === 0 ? 'fail' : 'success',
    }),
  );
}

const barKeys = (items: TrackItem[]) => items.flatMap((item) => (item.type === 'bar' ? [item.bar.key] : []));
const clusters = (items: TrackItem[]) => items.flatMap((item) => (item.type === 'cluster' ? [item.cluster] : []));
/** Every visit drawn, as a bar or inside a cluster. */
const drawnVisits = (items: TrackItem[]) =>
  items.flatMap((item) => (item.type === 'bar' ? [item.bar.key] : item.cluster.bars.map((b) => b.key)));

describe('barRows', () => {
  it('splits bars by row, each row in start order', () => {
    const layout = layoutTimeline(
      timeline([stage('a', 0, 100), stage('b', 50, 80, { branch: 'x' }), stage('c', 100, 200), stage('d', 90, 95, { branch: 'x' })]),
      0,
    );
    const rows = barRows(layout);
    expect(rows.map((row) => row.map((b) => b.key))).toEqual([['a#1', 'c#1'], ['b#1', 'd#1']]);
  });
});

describe('firstEndingAfter', () => {
  it('finds the first bar ending at or after a time', () => {
    const row = barRows(layoutTimeline(timeline(loop(10)), 0))[0] ?? [];
    expect(firstEndingAfter(row, 0)).toBe(0);
    expect(firstEndingAfter(row, 10)).toBe(0);
    expect(firstEndingAfter(row, 11)).toBe(1);
    expect(firstEndingAfter(row, 1000)).toBe(10);
  });
});

describe('firstStartingAfter', () => {
  it('finds the first bar starting after a time', () => {
    const row = barRows(layoutTimeline(timeline(loop(10)), 0))[0] ?? [];
    expect(firstStartingAfter(row, -1)).toBe(0);
    expect(firstStartingAfter(row, 0)).toBe(1);
    expect(firstStartingAfter(row, 11)).toBe(1);
    expect(firstStartingAfter(row, 1000)).toBe(10);
  });
});

describe('visibleItems', () => {
  const layout = layoutTimeline(timeline(loop(20_000)), 0);
  const rows = barRows(layout);

  it('draws every bar of a short run as it is', () => {
    const small = layoutTimeline(timeline(loop(300)), 0);
    const items = visibleItems(barRows(small), { start: 0, end: small.span }, 1300 / small.span);
    expect(barKeys(items)).toHaveLength(300);
    expect(clusters(items)).toEqual([]);
  });

  it("draws a short run's millisecond stages as bars beside a long gate wait", () => {
    // start and draft take a millisecond each, then a gate waits 9 s: at 1,300 px the
    // first two are far under MIN_BAR_PX and start in the same CLUSTER_PX stretch.
    const gated = layoutTimeline(
      timeline([stage('start', 0, 1), stage('draft', 1, 2), stage('setup', 2, 9_000), stage('review', 9_000, 9_001)]),
      0,
    );
    const items = visibleItems(barRows(gated), { start: 0, end: gated.span }, 1300 / gated.span);
    expect(clusters(items)).toEqual([]);
    expect(barKeys(items)).toEqual(['start#1', 'draft#1', 'setup#1', 'review#1']);
  });

  it('clusters only once the window holds more than CLUSTER_ABOVE bars', () => {
    const justUnder = layoutTimeline(timeline(loop(CLUSTER_ABOVE)), 0);
    const scale = 1 / 1000;
    expect(clusters(visibleItems(barRows(justUnder), { start: 0, end: justUnder.span }, scale))).toEqual([]);
    const over = layoutTimeline(timeline(loop(CLUSTER_ABOVE + 1)), 0);
    expect(clusters(visibleItems(barRows(over), { start: 0, end: over.span }, scale)).length).toBeGreaterThan(0);
  });

  it('draws a whole 20,000-stage run as a few hundred clusters holding every visit once', () => {
    const width = 1300;
    const items = visibleItems(rows, { start: 0, end: layout.span }, width / layout.span);
    expect(items.length).toBeLessThanOrEqual(width / CLUSTER_PX + 2);
    const drawn = drawnVisits(items);
    expect(drawn).toHaveLength(20_000);
    expect(new Set(drawn).size).toBe(20_000);
    const first = clusters(items)[0];
    expect(first?.start).toBe(0);
    expect(first?.failed).toBe(Math.ceil((first?.bars.length ?? 0) / 2));
  });

  it('draws only the bars in the window (and its overscan) when zoomed in', () => {
    // Stage 15,000 starts at 180,000 ms; a 240 ms window holds 20 stages.
    const items = visibleItems(rows, { start: 180_000, end: 180_240 }, 1300 / 240);
    const keys = barKeys(items);
    expect(clusters(items)).toEqual([]);
    expect(keys).toContain('test#7501');
    expect(keys.length).toBeGreaterThanOrEqual(20);
    expect(keys.length).toBeLessThanOrEqual(32);
  });

  it('keeps clusters stable while panning', () => {
    const scale = 1300 / 60_000;
    const a = clusters(visibleItems(rows, { start: 60_000, end: 120_000 }, scale));
    const b = clusters(visibleItems(rows, { start: 61_000, end: 121_000 }, scale));
    const inBoth = a.filter((c) => c.start >= 80_000 && c.end <= 120_000);
    expect(inBoth.length).toBeGreaterThan(0);
    for (const c of inBoth) expect(b.find((other) => other.key === c.key)?.bars.length).toBe(c.bars.length);
  });

  it('draws the kept (selected) bar on its own, even among narrow ones', () => {
    const items = visibleItems(rows, { start: 0, end: layout.span }, 1300 / layout.span, 'fix#7500');
    expect(barKeys(items)).toEqual(['fix#7500']);
    expect(drawnVisits(items)).toHaveLength(20_000);
  });
});
