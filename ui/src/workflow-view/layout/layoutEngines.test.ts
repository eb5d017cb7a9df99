import ELK from 'elkjs/lib/elk.bundled.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pipeline } from '../../test-support/workflowBuilder';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutFlow } from './layoutEngine';
import { layoutLayered } from './layered/layeredLayout';
import { layoutOriginOf, layoutWithEngine, type LayoutRunners } from './layoutEngines';
import { warmUpFlow } from './warmUpFlow';

const elk = new ELK();

function runners(graphviz: LayoutRunners['graphviz']): LayoutRunners {
  return { elk: (flow) => layoutFlow(flow, elk), graphviz, layered: (flow) => Promise.resolve(layoutLayered(flow)) };
}

describe('layoutWithEngine', () => {
  it('lays out with the engine asked for and remembers which one it was', async () => {
    const marked = (flow: WorkflowFlow) =>
      Promise.resolve({ ...flow, nodes: flow.nodes.map((n) => ({ ...n, position: { x: 7, y: 9 } })) });
    const flow = await layoutWithEngine('graphviz', workflowToFlow(pipeline(), []), runners(marked));
    expect(flow.nodes[0]?.position).toEqual({ x: 7, y: 9 });
    expect(layoutOriginOf(flow)).toEqual({ engine: 'graphviz', fallbackReason: null });
  });

  it('falls back to ELK when Graphviz fails, and says why', async () => {
    const broken = () => Promise.reject(new Error('wasm refused'));
    const flow = await layoutWithEngine('graphviz', workflowToFlow(pipeline(), []), runners(broken));
    expect(layoutOriginOf(flow)).toEqual({ engine: 'elk', fallbackReason: 'wasm refused' });
    expect(flow.edges.every((e) => (e.data?.route?.length ?? 0) >= 2)).toBe(true);
  });

  it('reshapes the laid-out flow (a fold) and still knows which engine laid it out', async () => {
    const moved = (flow: WorkflowFlow) => ({ ...flow, nodes: flow.nodes.map((n) => ({ ...n, position: { x: 1, y: 2 } })) });
    const layered = runners(() => Promise.reject(new Error('unused')));
    const flow = await layoutWithEngine('layered', workflowToFlow(pipeline(), []), layered, moved);
    expect(flow.nodes[0]?.position).toEqual({ x: 1, y: 2 });
    expect(layoutOriginOf(flow)).toEqual({ engine: 'layered', fallbackReason: null });
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
    const flow = await layoutWithEngine('layered', workflowToFlow(pipeline(), []));
    expect(layoutOriginOf(flow)).toEqual({ engine: 'layered', fallbackReason: null });
    expect(flow.edges.every((e) => (e.data?.route?.length ?? 0) >= 2)).toBe(true);
  });
});
