import { describe, expect, it } from 'vitest';
import { barAriaLabel, barName, barTooltip, statusWords } from './barDescription';
import { RUN_START, stage, timeline, wait } from './timelineFixture';
import { layoutTimeline } from './timelineLayout';

const layout = layoutTimeline(
  timeline(
    [
      stage('unit', 0, 1200, {
        visit: 2,
        status: 'fail',
        retries: 1,
        attempts: 2,
        failure_reason: 'exit 1',
        failure_class: 'deterministic',
      }),
      stage('gate', 1200, 5200, { kind: 'human', waits: [wait('gate', 1200, 4200)] }),
      stage('build', 5200, null, { status: 'running' }),
    ],
    { status: 'running' },
  ),
  RUN_START + 8000,
);
const [unit, gate, build] = layout.bars;

describe('bar descriptions', () => {
  it('names the node, with the visit after the first', () => {
    expect(unit && barName(unit)).toBe('unit #2');
    expect(gate && barName(gate)).toBe('gate');
    expect(statusWords('partial_success')).toBe('partial success');
  });

  it('says node, visit, status, duration, retries and waits', () => {
    expect(unit && barAriaLabel(unit)).toBe('unit visit 2, fail, 1.2s, 1 retry');
    expect(gate && barAriaLabel(gate)).toBe('gate, success, 4s, waited 3s for a person');
    expect(build && barAriaLabel(build)).toBe('build, running, 2.8s');
  });

  it('explains failures and waits in the tooltip', () => {
    expect(unit && barTooltip(unit)).toBe(
      'unit #2 (command)\nfail · 1.2s\nattempts: 2, retries: 1\nfailed (deterministic): exit 1',
    );
    expect(gate && barTooltip(gate)).toContain('waited for a person: Ship it?');
    expect(build && barTooltip(build)).toContain('running · 2.8s so far');
  });
});
