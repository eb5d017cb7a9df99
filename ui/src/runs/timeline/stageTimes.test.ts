import { describe, expect, it } from 'vitest';
import { stageTimes } from './stageTimes';
import { RUN_START, stage } from './timelineFixture';

describe('stageTimes', () => {
  it("reads each stage's start and end, NaN for one not ended or unreadable", () => {
    const stages = [stage('a', 0, 1500), stage('b', 2000, null), { ...stage('c', 3000, 4000), ended_at: 'soon' }];
    const { starts, ends } = stageTimes(stages);
    expect([...starts]).toEqual([RUN_START, RUN_START + 2000, RUN_START + 3000]);
    expect([...ends]).toEqual([RUN_START + 1500, NaN, NaN]);
  });

  it('reads a list of stages once, and a new list afresh', () => {
    const stages = [stage('a', 0, 10)];
    const first = stageTimes(stages);
    expect(stageTimes(stages)).toBe(first);
    const later = [...stages, stage('b', 20, 30)];
    expect(stageTimes(later)).not.toBe(first);
    expect([...stageTimes(later).starts]).toEqual([RUN_START, RUN_START + 20]);
  });
});
