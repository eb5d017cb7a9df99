import { describe, expect, it } from 'vitest';
import type { TimelineStage } from '../../generated/TimelineStage';
import { stage, timeline } from './timelineFixture';
import { layoutTimeline } from './timelineLayout';
import { CLUSTER_ABOVE, CLUSTER_PX, barRows, firstEndingAfter, firstStartingAfter, visibleItems, withKeptBar, type TrackItem } from './visibleBars';

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
    const whole = visibleItems(rows, { start: 0, end: layout.span }, 1300 / layout.span);
    const items = withKeptBar(whole, 'fix#7500');
    expect(barKeys(items)).toEqual(['fix#7500']);
    expect(drawnVisits(items)).toHaveLength(20_000);
    // The cluster it was in is split around it, in order, each part keyed by its first visit
    // as a cluster of its own would be; every other item is left as it was.
    const from = whole.findIndex((item) => item.type === 'cluster' && item.cluster.bars.some((bar) => bar.key === 'fix#7500'));
    const split = whole[from];
    if (split?.type !== 'cluster') throw new Error('fix#7500 is in no cluster at this zoom');
    const at = split.cluster.bars.findIndex((bar) => bar.key === 'fix#7500');
    const parts = items.slice(from, items.length - (whole.length - from - 1));
    expect(parts.flatMap((item) => (item.type === 'bar' ? [item.bar] : item.cluster.bars))).toEqual(split.cluster.bars);
    expect(parts.map((item) => (item.type === 'bar' ? item.bar.key : 'cluster'))).toContain('fix#7500');
    // What comes before it keeps the cluster's key: it starts with the same visit.
    if (at > 1) expect(parts[0]?.type === 'cluster' && parts[0].cluster.key).toBe(split.cluster.key);
    for (const part of parts) {
      if (part.type === 'cluster') {
        expect(part.cluster.key).toBe(`cluster:${split.cluster.row}:${split.cluster.bucket}:${part.cluster.bars[0]?.key}`);
        expect(part.cluster.start).toBe(part.cluster.bars[0]?.start);
      }
    }
    expect(items.slice(0, from)).toEqual(whole.slice(0, from));
    expect(items.slice(from + parts.length)).toEqual(whole.slice(from + 1));
  });

  it('splits a cluster at its first and last visit, and leaves what is drawn already or out of view alone', () => {
    const whole = visibleItems(rows, { start: 0, end: layout.span }, 1300 / layout.span);
    const someCluster = whole.find((item) => item.type === 'cluster' && item.cluster.bars.length >= 3);
    if (someCluster?.type !== 'cluster') throw new Error('no cluster of three visits at this zoom');
    const { bars } = someCluster.cluster;
    for (const kept of [bars[0], bars[bars.length - 1]]) {
      const items = withKeptBar(whole, kept?.key ?? null);
      expect(items).toHaveLength(whole.length + 1);
      expect(drawnVisits(items)).toHaveLength(drawnVisits(whole).length);
      expect(barKeys(items)).toContain(kept?.key);
    }
    expect(withKeptBar(whole, null)).toBe(whole);
    expect(withKeptBar(whole, 'no-such-node#1')).toBe(whole);
    const zoomed = visibleItems(rows, { start: 180_000, end: 180_240 }, 1300 / 240);
    expect(withKeptBar(zoomed, 'test#7501')).toBe(zoomed);
  });
});
