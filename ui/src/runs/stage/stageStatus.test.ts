import { describe, expect, it } from 'vitest';
import { parseStageStatus } from './stageStatus';

describe('status.json', () => {
  it('reads the fields the detail shows and tolerates missing ones', () => {
    const parsed = parseStageStatus(
      JSON.stringify({
        status: 'fail',
        notes: 'exit 1',
        failure_reason: 'node `unit`: exit code 1',
        failure_class: 'deterministic',
        usage: { input_tokens: 10, output_tokens: 5, note: 'x' },
        cost_usd: 0.25,
        files_touched: ['a.rs', 3],
        context_updates: { 'command.output': 'boom' },
      }),
    );
    expect(parsed).toMatchObject({
      status: 'fail',
      failureClass: 'deterministic',
      usage: { input_tokens: 10, output_tokens: 5 },
      costUsd: 0.25,
      filesTouched: ['a.rs'],
      contextUpdates: { 'command.output': 'boom' },
      model: null,
      attempts: 1,
    });
    expect(() => parseStageStatus('[1]')).toThrow(/JSON object/);
  });
});
