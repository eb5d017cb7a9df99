import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import { CommitGraph } from './CommitGraph';
import { layoutCommitGraph } from './graphLayout';

const entry = (sha: string, parent: string, node_id: string, timeline: number, current = false): CheckpointEntry => ({
  sha,
  node_id,
  status: 'success',
  completed: 1,
  metadata_sha: 'meta',
  time: '2025-01-01T00:00:00Z',
  parent,
  timeline,
  branches: [],
  current,
});

describe('CommitGraph', () => {
  it('renders one row per checkpoint with its test ids, newest first, the tip marked', () => {
    const graph = layoutCommitGraph([entry('aaaa1111', 'base', 'plan', 1), entry('bbbb2222', 'aaaa1111', 'build', 2, true)]);
    const html = renderToStaticMarkup(createElement(CommitGraph, { graph, selectedSha: 'aaaa1111', onSelect: () => {} }));
    const rows = [...html.matchAll(/data-testid="checkpoint-row" data-sha="(\w+)" data-node="(\w+)" data-timeline="(\d)"/g)];
    expect(rows.map((m) => [m[1], m[2], m[3]])).toEqual([
      ['bbbb2222', 'build', '2'],
      ['aaaa1111', 'plan', '1'],
    ]);
    expect(html.match(/>current</g)).toHaveLength(1);
    expect(html).toContain('aria-pressed="true"');
  });
});
