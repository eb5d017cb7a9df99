import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_KEEP_CHARS, TranscriptBuilder } from './transcript';
import { eventStream } from './runEvents.testdata';

describe('transcript', () => {
  it('merges chunks of one stream and pairs tool calls with their results', () => {
    const { events, add } = eventStream();
    add('stage.started', 'impl', { visit: 1 });
    add('agent.text', 'impl', { text: 'Let me ' });
    add('agent.text', 'impl', { text: 'look.' });
    add('agent.tool_call.started', 'impl', { call_id: 'c1', tool: 'read_file', arguments: { path: 'a.rs' } });
    add('agent.tool_call.completed', 'impl', { call_id: 'c1', tool: 'read_file', result: 'fn main() {}', is_error: false });
    add('command.output', 'impl', { stream: 'stderr', text: 'warn' });
    const builder = new TranscriptBuilder();
    for (const event of events) builder.apply(event);
    const transcript = builder.get('impl', 1);
    expect(transcript?.items).toEqual([
      { kind: 'text', stream: 'agent', text: 'Let me look.' },
      { kind: 'tool', callId: 'c1', tool: 'read_file', arguments: '{\n  "path": "a.rs"\n}', result: 'fn main() {}', isError: false },
      { kind: 'text', stream: 'stderr', text: 'warn' },
    ]);
  });

  it('keeps each visit apart and drops the oldest text past the limit', () => {
    const { events, add } = eventStream();
    add('stage.started', 'test', { visit: 1 });
    add('command.output', 'test', { stream: 'stdout', text: 'first visit' });
    add('stage.started', 'test', { visit: 2 });
    const chunk = 'x'.repeat(50_000);
    for (let i = 0; i < 10; i += 1) add('command.output', 'test', { stream: 'stdout', text: chunk });
    add('command.output', 'test', { stream: 'stdout', text: 'END' });
    const builder = new TranscriptBuilder();
    for (const event of events) builder.apply(event);
    expect(builder.get('test', 1)?.items).toEqual([{ kind: 'text', stream: 'stdout', text: 'first visit' }]);
    const second = builder.get('test', 2);
    const kept = second?.items.map((item) => (item.kind === 'text' ? item.text : '')).join('') ?? '';
    expect(kept.endsWith('END')).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(TRANSCRIPT_KEEP_CHARS * 1.5);
    expect((second?.cutChars ?? 0) + kept.length).toBe(500_003);
  });

  it('keeps a stage run again after a rollback apart, by its folder', () => {
    const { events, add } = eventStream();
    add('stage.started', 'browser', { visit: 1, stage_dir: 'nodes/browser' });
    add('command.output', 'browser', { stream: 'stdout', text: 'first timeline' });
    add('stage.started', 'browser', { visit: 1, stage_dir: 'nodes/browser-rerun_2' });
    add('command.output', 'browser', { stream: 'stdout', text: 'second timeline' });
    const builder = new TranscriptBuilder();
    for (const event of events) builder.apply(event);
    const text = (stageDir: string) => builder.get('browser', 1, stageDir)?.items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
    expect(text('nodes/browser')).toBe('first timeline');
    expect(text('nodes/browser-rerun_2')).toBe('second timeline');
  });
});
