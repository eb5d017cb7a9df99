import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Timeline } from '../../generated/Timeline';
import { RunTimeline } from './RunTimeline';
import { RUN_START, stage, timeline } from './timelineFixture';

function render(input: Timeline, scrubTime: number | null = null): string {
  return renderToStaticMarkup(
    createElement(RunTimeline, {
      timeline: input,
      now: RUN_START + 4000,
      selected: { node_id: 'unit', visit: 2 },
      onSelect: () => undefined,
      scrubTime,
      onScrub: () => undefined,
    }),
  );
}

const run = timeline(
  [
    stage('unit', 0, 1200, { status: 'fail', retries: 1, attempts: 2 }),
    stage('unit', 1200, 2400, { visit: 2, branch: 'checks' }),
    stage('build', 2400, null, { status: 'running' }),
  ],
  { status: 'running' },
);

describe('RunTimeline', () => {
  it('renders a button per stage with test ids, data and accessible names', () => {
    const html = render(run);
    expect(html).toContain('data-testid="run-timeline"');
    expect(html.match(/data-testid="timeline-bar"/g)).toHaveLength(3);
    expect(html).toContain('data-node="unit" data-visit="2" data-status="success" aria-label="unit visit 2, success, 1.2s"');
    expect(html).toContain('aria-label="unit, fail, 1.2s, 1 retry"');
    expect(html).toMatch(/class="timeline-bar status-running is-live"/);
    expect(html).toMatch(/class="timeline-bar status-success is-selected"[^>]*aria-current="true"/);
    expect(html).toContain('>main<');
    expect(html).toContain('>checks<');
    expect(html).not.toContain('timeline-scrubber');
  });

  it('shows the scrubber and dims stages that had not started', () => {
    const html = render(run, 1000);
    expect(html).toContain('data-testid="timeline-scrubber"');
    expect(html).toContain('At 1s');
    expect(html).toMatch(/class="timeline-bar status-running is-live is-pending"/);
    expect(html).toContain('aria-valuenow="1000"');
  });

  it('says so when nothing has started', () => {
    expect(render(timeline([], { status: 'running' }))).toContain('No stages have started yet.');
  });
});
