import ELK from 'elkjs/lib/elk.bundled.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pipeline } from '../../test-support/workflowBuilder';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutFlow } from './layoutEngine';
import { layoutLayered } from './layered/layeredLayout';
import type { FoldRoom } from './fold/foldFlow';
import { layoutOriginOf, layoutWithEngine, type LayoutRunners } from './layoutEngines';
import { warmUpFlow } from './warmUpFlow';

const elk = new ELK();

function runners(graphviz: LayoutRunners['graphviz']): LayoutRunners {
  return { elk: (flow) => layoutFlow(flow, elk), graphviz, layered: (flow) => Promise.resolve(layoutLayered(flow)) };
}

const ROOM: FoldRoom = { width: 400, height: 900, maxZoom: 1, readableZoom: 0.6 };

describe('layoutWithEngine', () => {
  it('lays out with the engine asked for and remembers which one it was', async () => {
    const marked = (flow: WorkflowFlow) =>
      Promise.resolve({ ...flow, nodes: flow.nodes.map((n) => ({ ...n, position: { x: 7, y: 9 } })) });
    const flow = await layoutWithEngine('graphviz', workflowToFlow(pipeline(), []), null, runners(marked));
    expect(flow.nodes[0]?.position).toEqual({ x: 7, y: 9 });
    expect(layoutOriginOf(flow)).toEqual({ engine: 'graphviz', fallbackReason: null });
  });

  it('falls back to ELK when Graphviz fails, and says why', async () => {
    const broken = () => Promise.reject(new Error('wasm refused'));
    const flow = await layoutWithEngine('graphviz', workflowToFlow(pipeline(), []), null, runners(broken));
    expect(layoutOriginOf(flow)).toEqual({ engine: 'elk', fallbackReason: 'wasm refused' });
    expect(flow.edges.every((e) => (e.data?.route?.length ?? 0) >= 2)).toBe(true);
  });

  it('hands the engine the room to fold for and still knows which engine laid it out', async () => {
    const rooms: (FoldRoom | null)[] = [];
    const layered: LayoutRunners = {
      ...runners(() => Promise.reject(new Error('unused'))),
      layered: (flow, room) => {
        rooms.push(room);
        return Promise.resolve({ ...flow, nodes: flow.nodes.map((n) => ({ ...n, position: { x: 1, y: 2 } })) });
      },
    };
    const flow = await layoutWithEngine('layered', workflowToFlow(pipeline(), []), ROOM, layered);
    expect(rooms).toEqual([ROOM]);
    expect(flow.nodes[0]?.position).toEqual({ x: 1, y: 2 });
    expect(layoutOriginOf(flow)).toEqual({ engine: 'layered', fallbackReason: null });
  });

  it('folds what the fallback engine laid out too', async () => {
    const broken = () => Promise.reject(new Error('wasm refused'));
    const rooms: (FoldRoom | null)[] = [];
    const fallback: LayoutRunners = {
      ...runners(broken),
      elk: (flow, room) => {
        rooms.push(room);
        return layoutFlow(flow, elk);
      },
    };
    await layoutWithEngine('graphviz', workflowToFlow(pipeline(), []), ROOM, fallback);
    expect(rooms).toEqual([ROOM]);
  });

  it('knows nothing of a flow it did not lay out', () => {
    expect(layoutOriginOf(workflowToFlow(pipeline(), []))).toBeUndefined();
  });
});

describe('warmUpFlow', () => {
  it('uses what real workflows use: a box, a labelled edge, a loop back', () => {
    const flow = warmUpFlow();
    expect(flow.nodes.some((n) => n.type === 'subgraph')).toBe(true);
    expect(flow.nodes.some((n) => n.parentId !== undefined)).toBe(true);
    expect(flow.edges.some((e) => e.data?.labelBox !== null)).toBe(true);
    expect(flow.edges.some((e) => e.source === 'check' && e.target === 'plan')).toBe(true);
  });
});

describe('layout engine choice', () => {
  let stored: Map<string, string>;
  beforeEach(() => {
    stored = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    });
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is auto by default and remembers a new choice in localStorage', async () => {
    const choice = await import('./layoutEngineChoice');
    expect(choice.chosenLayoutEngine()).toBe('auto');
    choice.chooseLayoutEngine('graphviz');
    expect(choice.chosenLayoutEngine()).toBe('graphviz');
    expect(stored.get(choice.LAYOUT_ENGINE_STORAGE_KEY)).toBe('graphviz');
  });

  it('reads the remembered choice and ignores values it does not know', async () => {
    stored.set('heddle.layoutEngine', 'graphviz');
    expect((await import('./layoutEngineChoice')).chosenLayoutEngine()).toBe('graphviz');
    vi.resetModules();
    stored.set('heddle.layoutEngine', 'neato');
    expect((await import('./layoutEngineChoice')).chosenLayoutEngine()).toBe('auto');
  });

  it('auto lays graphs out with the layered engine; a pick is kept', async () => {
    const { engineFor } = await import('./layoutEngineChoice');
    expect(engineFor('auto')).toBe('layered');
    expect(engineFor('elk')).toBe('elk');
    expect(engineFor('graphviz')).toBe('graphviz');
    expect(engineFor('layered')).toBe('layered');
  });

  it('lays out with the layered engine in the page, without a worker', async () => {
    const flow = await layoutWithEngine('layered', workflowToFlow(pipeline(), []), null);
    expect(layoutOriginOf(flow)).toEqual({ engine: 'layered', fallbackReason: null });
    expect(flow.edges.every((e) => (e.data?.route?.length ?? 0) >= 2)).toBe(true);
  });
});
