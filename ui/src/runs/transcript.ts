import type { RunEvent } from '../api/runEvent';

/** A run of text one stream produced: a command's stdout or stderr, or an agent's reply. */
export type TranscriptText = { kind: 'text'; stream: 'stdout' | 'stderr' | 'agent'; text: string };

/** A tool call an agent made, with its result once it came back. */
export type TranscriptTool = {
  kind: 'tool';
  callId: string;
  tool: string;
  arguments: string;
  result: string | null;
  isError: boolean;
};

export type TranscriptItem = TranscriptText | TranscriptTool;

/** What one stage visit produced live, oldest first. */
export type Transcript = { items: TranscriptItem[]; cutChars: number };

/** Characters of text kept per stage visit; older text is dropped (the logs keep it all). */
export const TRANSCRIPT_KEEP_CHARS = 200_000;

/** A tool call's arguments (any JSON value) as text: a string as it is, else indented JSON. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, null, 2);
}

/** The key of a stage visit: its folder when the events name it, else node and visit. */
export function visitKey(node: string, visit: number, stageDir?: string | null): string {
  return stageDir ?? `${node}#${visit}`;
}

/**
 * Collects the live output of every stage visit from the event stream: consecutive chunks
 * of one stream are merged into one item, tool calls are matched to their results.
 */
export class TranscriptBuilder {
  /** Each node's current stage visit key. */
  private readonly current = new Map<string, string>();
  private readonly transcripts = new Map<string, Transcript>();
  private readonly chars = new Map<string, number>();

  private transcriptOf(node: string): [string, Transcript] {
    const key = this.current.get(node) ?? visitKey(node, 1);
    let found = this.transcripts.get(key);
    if (found === undefined) {
      found = { items: [], cutChars: 0 };
      this.transcripts.set(key, found);
    }
    return [key, found];
  }

  private addText(node: string, stream: TranscriptText['stream'], text: string): void {
    if (text === '') return;
    const [key, transcript] = this.transcriptOf(node);
    const last = transcript.items.at(-1);
    if (last !== undefined && last.kind === 'text' && last.stream === stream) {
      transcript.items[transcript.items.length - 1] = { ...last, text: last.text + text };
    } else {
      transcript.items.push({ kind: 'text', stream, text });
    }
    const total = (this.chars.get(key) ?? 0) + text.length;
    this.chars.set(key, total);
    if (total > TRANSCRIPT_KEEP_CHARS * 1.5) this.trim(key, transcript, total);
  }

  private trim(key: string, transcript: Transcript, total: number): void {
    let excess = total - TRANSCRIPT_KEEP_CHARS;
    while (excess > 0 && transcript.items.length > 0) {
      const first = transcript.items[0];
      if (first === undefined) break;
      if (first.kind === 'text' && first.text.length > excess) {
        transcript.items[0] = { ...first, text: first.text.slice(excess) };
        transcript.cutChars += excess;
        excess = 0;
        break;
      }
      const size = first.kind === 'text' ? first.text.length : 0;
      transcript.items.shift();
      transcript.cutChars += size;
      excess -= size;
    }
    this.chars.set(key, TRANSCRIPT_KEEP_CHARS + Math.max(0, excess));
  }

  /** Applies one event; returns the visit key it changed, if any. */
  apply(event: RunEvent): string | null {
    const node = event.node_id;
    if (node === undefined || node === null) return null;
    switch (event.event) {
      case 'stage.started': {
        const { visit, stage_dir } = event.properties;
        this.current.set(node, visitKey(node, visit, stage_dir));
        return this.transcriptOf(node)[0];
      }
      case 'command.output':
        this.addText(node, event.properties.stream, event.properties.text);
        return this.transcriptOf(node)[0];
      case 'agent.text':
        this.addText(node, 'agent', event.properties.text);
        return this.transcriptOf(node)[0];
      case 'agent.tool_call.started': {
        const [key, transcript] = this.transcriptOf(node);
        transcript.items.push({
          kind: 'tool',
          callId: event.properties.call_id,
          tool: event.properties.tool,
          arguments: argumentsText(event.properties.arguments),
          result: null,
          isError: false,
        });
        return key;
      }
      case 'agent.tool_call.completed': {
        const [key, transcript] = this.transcriptOf(node);
        const { call_id: callId, tool, result, is_error: isError } = event.properties;
        let index = transcript.items.length - 1;
        while (index >= 0) {
          const item = transcript.items[index];
          if (item !== undefined && item.kind === 'tool' && item.callId === callId) break;
          index -= 1;
        }
        const done: TranscriptTool = { kind: 'tool', callId, tool, arguments: '', result, isError };
        const started = transcript.items[index];
        if (index >= 0 && started !== undefined && started.kind === 'tool') {
          transcript.items[index] = { ...started, result: done.result, isError: done.isError };
        } else {
          transcript.items.push(done);
        }
        return key;
      }
      default:
        return null;
    }
  }

  /**
   * The transcript of a stage visit (a copy of its item list), or null when it has none:
   * found by its folder (`nodes/...`), else by node and visit (runs from before events named it).
   */
  get(node: string, visit: number, stageDir?: string): Transcript | null {
    const found =
      (stageDir === undefined ? undefined : this.transcripts.get(stageDir)) ?? this.transcripts.get(visitKey(node, visit));
    return found === undefined ? null : { items: [...found.items], cutChars: found.cutChars };
  }
}
