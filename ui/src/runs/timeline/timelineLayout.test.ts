import { describe, expect, it } from 'vitest';
import { RUN_START, stage, timeline, wait } from './timelineFixture';
import { parseTime } from './stageTimes';
import { layoutTimeline, type TimelineBar } from './timelineLayout';
import { barPhaseAt, nodeStatesAt, stagesAt } from './timelineMoment';

const bar = (bars: TimelineBar[], key: string): TimelineBar => {
  const found = bars.find((b) => b.key === key);
  if (found === undefined) throw new Error(`no bar ${key}`);
  return found;
};

/** No two bars in one row overlap in time (touching is fine). */
function overlapsInRows(bars: TimelineBar[]): boolean {
  const byRow = new Map<number, TimelineBar[]>();
  for (const b of bars) byRow.set(b.row, [...(byRow.get(b.row) ?? []), b]);
  for (const row of byRow.values()) {
    const sorted = [...row].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i += 1) {
      const previous = sorted[i - 1];
      const current = sorted[i];
      if (previous !== undefined && current !== undefined && current.start < previous.end) return true;
    }
  }
  return false;
}

describe('layoutTimeline', () => {
  it('measures bars from the run start and puts the main lane first', () => {
    const layout = layoutTimeline(
      timeline(
        [
          stage('start', 0, 0),
          stage('fan', 100, 200, { kind: 'parallel' }),
          stage('lint', 200, 1200, { branch: 'lint' }),
          stage('test', 200, 3200, { branch: 'test' }),
          stage('join', 3200, 3300),
        ],
        { lanes: ['test', 'lint'] },
      ),
      0,
    );
    expect(layout.origin).toBe(RUN_START);
    expect(layout.span).toBe(3300);
    expect(layout.lanes.map((l) => [l.id, l.label, l.firstRow, l.rowCount])).toEqual([
      [null, 'main', 0, 1],
      ['test', 'test', 1, 1],
      ['lint', 'lint', 2, 1],
    ]);
    expect(layout.rowCount).toBe(3);
    expect(bar(layout.bars, 'lint#1')).toMatchObject({ lane: 2, row: 2, start: 200, end: 1200, open: false });
    expect(bar(layout.bars, 'test#1')).toMatchObject({ lane: 1, row: 1, start: 200, end: 3200 });
    expect(bar(layout.bars, 'join#1')).toMatchObject({ lane: 0, row: 0 });
  });

  it('adds a lane for a branch missing from `lanes`', () => {
    const layout = layoutTimeline(timeline([stage('x', 0, 10, { branch: 'extra' })], { lanes: [] }), 0);
    expect(layout.lanes.map((l) => l.id)).toEqual([null, 'extra']);
    expect(layout.bars[0]?.row).toBe(1);
  });

  it('stacks overlapping bars of one lane in sub-rows, reusing the lowest free row', () => {
    const layout = layoutTimeline(
      timeline([
        stage('a', 0, 1000),
        stage('b', 500, 1500),
        stage('c', 1000, 2000),
        stage('d', 1200, 1300),
        stage('e', 2000, 2100),
        stage('after', 0, 100, { branch: 'br' }),
      ]),
      0,
    );
    const rows = Object.fromEntries(layout.bars.map((b) => [b.stage.node_id, b.row]));
    expect(rows).toEqual({ a: 0, b: 1, c: 0, d: 2, e: 0, after: 3 });
    expect(layout.lanes[0]?.rowCount).toBe(3);
    expect(layout.lanes[1]).toMatchObject({ firstRow: 3, rowCount: 1 });
    expect(overlapsInRows(layout.bars)).toBe(false);
  });

  it('ends a running stage and open waits at now while the run runs', () => {
    const now = RUN_START + 5000;
    const layout = layoutTimeline(
      timeline([stage('prep', 0, 1000), stage('ask', 1000, null, { kind: 'human', waits: [wait('ask', 1500, null)] })], {
        status: 'running',
      }),
      now,
    );
    const ask = bar(layout.bars, 'ask#1');
    expect(ask).toMatchObject({ start: 1000, end: 5000, open: true, live: true });
    expect(ask.waits).toEqual([expect.objectContaining({ start: 1500, end: 5000, open: true })]);
    expect(layout.span).toBe(5000);
  });

  it('keeps a stopped run still: open stages end at the last known time, not now', () => {
    const stopped = timeline(
      [stage('a', 0, 2000), stage('b', 1000, null, { status: 'interrupted', duration_ms: null })],
      { status: 'interrupted' },
    );
    const early = layoutTimeline(stopped, RUN_START + 10_000);
    const late = layoutTimeline(stopped, RUN_START + 99_000);
    expect(bar(early.bars, 'b#1')).toMatchObject({ end: 2000, open: true, live: false });
    expect(late).toEqual(early);
  });

  it('clamps waits to their bar and marks retries evenly between attempts', () => {
    const layout = layoutTimeline(
      timeline([
        stage('gate', 0, 4000, { waits: [wait('gate', 1000, 3000), wait('gate', 3500, 9000)] }),
        stage('flaky', 4000, 7000, { attempts: 3, retries: 2, status: 'fail' }),
      ]),
      0,
    );
    expect(bar(layout.bars, 'gate#1').waits.map((w) => [w.start, w.end, w.open])).toEqual([
      [1000, 3000, false],
      [3500, 4000, false],
    ]);
    expect(bar(layout.bars, 'flaky#1').retryMarks).toEqual([5000, 6000]);
  });

  it('gives repeated visits distinct keys', () => {
    const layout = layoutTimeline(
      timeline([stage('unit', 0, 10), stage('unit', 10, 20, { visit: 2 }), stage('unit', 20, 30, { visit: 2 })]),
      0,
    );
    expect(layout.bars.map((b) => b.key)).toEqual(['unit#1', 'unit#2', 'unit#2~2']);
  });

  it('handles an empty timeline', () => {
    expect(layoutTimeline(timeline([]), 0)).toEqual({
      origin: 0,
      span: 0,
      lanes: [{ id: null, label: 'main', firstRow: 0, rowCount: 1 }],
      bars: [],
      rowCount: 1,
    });
    expect(layoutTimeline(timeline([], { status: 'running' }), 1234).origin).toBe(1234);
  });

  it('reads RFC 3339 times and rejects others', () => {
    expect(parseTime('2025-03-01T10:00:01.500Z')).toBe(RUN_START + 1500);
    expect(parseTime('2025-03-01T11:00:00+01:00')).toBe(RUN_START);
    expect(parseTime('not a date')).toBeNull();
    expect(parseTime(null)).toBeNull();
  });

  it('lays out 300 stages in 10 branches quickly and without overlaps', () => {
    const stages = Array.from({ length: 300 }, (_, i) => {
      const branch = i % 3 === 0 ? null : `b${i % 10}`;
      const start = i * 37;
      return stage(`n${i}`, start, start + 200 + ((i * 7919) % 900), { branch, retries: i % 4, attempts: (i % 4) + 1 });
    });
    const input = timeline(stages);
    const began = performance.now();
    const layout = layoutTimeline(input, 0);
    const took = performance.now() - began;
    expect(layout.bars).toHaveLength(300);
    expect(layout.lanes).toHaveLength(1 + 10);
    expect(overlapsInRows(layout.bars)).toBe(false);
    const laneRows = layout.lanes.reduce((sum, lane) => sum + lane.rowCount, 0);
    expect(layout.rowCount).toBe(laneRows);
    for (const b of layout.bars) {
      const lane = layout.lanes[b.lane];
      expect(lane).toBeDefined();
      if (lane === undefined) continue;
      expect(b.row).toBeGreaterThanOrEqual(lane.firstRow);
      expect(b.row).toBeLessThan(lane.firstRow + lane.rowCount);
    }
    expect(took).toBeLessThan(250);
  });
});

describe('the scrubber moment', () => {
  const layout = layoutTimeline(
    timeline(
      [
        stage('a', 0, 1000),
        stage('b', 1000, 3000, { status: 'fail' }),
        stage('b', 3000, 4000, { visit: 2 }),
        stage('c', 3500, null, { status: 'running' }),
      ],
      { status: 'running' },
    ),
    RUN_START + 6000,
  );

  it('tells each bar’s phase', () => {
    const a = bar(layout.bars, 'a#1');
    expect([barPhaseAt(a, -1), barPhaseAt(a, 0), barPhaseAt(a, 999), barPhaseAt(a, 1000)]).toEqual([
      'pending',
      'running',
      'running',
      'finished',
    ]);
    expect(barPhaseAt(bar(layout.bars, 'c#1'), 99_999)).toBe('running');
  });

  it('lists the stages running and finished at a time', () => {
    const { running, finished } = stagesAt(layout, 3600);
    expect(running.map((b) => b.key)).toEqual(['b#2', 'c#1']);
    expect(finished.map((b) => b.key)).toEqual(['a#1', 'b#1']);
  });

  it('gives each started node its latest visit and state', () => {
    const at2000 = nodeStatesAt(layout, 2000);
    expect([...at2000.entries()].map(([id, m]) => [id, m.bar.stage.visit, m.state])).toEqual([
      ['a', 1, 'success'],
      ['b', 1, 'running'],
    ]);
    const at3200 = nodeStatesAt(layout, 3200);
    expect(at3200.get('b')).toMatchObject({ state: 'running', bar: { key: 'b#2' } });
    expect(nodeStatesAt(layout, 5000).get('b')?.state).toBe('success');
    expect(nodeStatesAt(layout, 5000).get('c')?.state).toBe('running');
  });
});

describe('parseTime', () => {
  it('reads RFC 3339 times as Date.parse does', () => {
    for (const text of [
      '2026-11-23T01:00:00Z',
      '2026-11-23T01:00:00.003Z',
      '2026-11-23T01:00:00.3Z',
      '2026-11-23T01:00:00.12Z',
      '2026-11-23T23:59:59.999999999Z',
      '2024-02-29T12:30:45.250Z',
      '2026-11-23T01:00:00+02:00',
      '2026-11-23T01:00:00.5-05:30',
    ]) {
      expect(parseTime(text), text).toBe(Date.parse(text));
    }
  });

  it('gives null for what is not a time', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime('yesterday')).toBeNull();
    expect(parseTime('2026-11-23T01:00:00.Z')).toBeNull();
    expect(parseTime('2026-1x-23T01:00:00Z')).toBeNull();
  });
});

