import { describe, expect, it } from 'vitest';
import { edge, node, subgraph, workflow } from '../../../test-support/workflowBuilder';
import type { WorkflowFlow } from '../../flow/flowTypes';
import { workflowToFlow } from '../../flow/workflowToFlow';
import type { FoldRoom } from '../fold/foldFlow';
import { warmUpFlow } from '../warmUpFlow';
import { placementOf, withPlacement } from './flowPlacement';
import { answerLayered, layoutAndFold } from './layeredAnswer';
import type { LayeredRequest, LayeredResponse } from './layeredMessages';
import { packFlow, packedBuffers } from './packedFlow';
import { LAYERED_OFF_PAGE_FROM, layeredInWorker, layoutLayeredFolded, type LayeredLayouter, type LayeredWorkerPort } from './workerLayered';

const ROOM: FoldRoom = { width: 1200, height: 700, maxZoom: 1, readableZoom: 0.6 };

/** start, `stages` commands and exit in a chain, a labelled loop back every 7 stages, left to right. */
function chainFlow(stages: number): WorkflowFlow {
  const ids = ['start', ...Array.from({ length: stages }, (_, i) => `n${i}`), 'exit'];
  const nodes = ids.map((id, i) => node(id, { kind: i === 0 ? 'start' : i === stages + 1 ? 'exit' : 'command' }));
  const edges = ids.slice(1).map((id, i) => edge(ids[i] ?? 'start', id));
  for (let i = 7; i < stages; i += 7) edges.push(edge(`n${i}`, `n${i - 6}`, { label: 'retry' }));
  return workflowToFlow(workflow({ rankdir: 'LR', nodes, edges }), []);
}

/** Boxes in boxes, a label, a loop back: every part of a placement. */
function boxedFlow(): WorkflowFlow {
  return workflowToFlow(
    workflow({
      nodes: [node('start', { kind: 'start' }), node('a', { subgraph: 0 }), node('b', { subgraph: 1 }), node('exit', { kind: 'exit' })],
      edges: [edge('start', 'a'), edge('a', 'b', { label: 'next' }), edge('b', 'a', { label: 'again' }), edge('b', 'exit'), edge('b', 'b')],
      subgraphs: [subgraph(['a', 'b'], { id: 'cluster_outer', label: 'Outer' }), subgraph(['b'], { id: 'cluster_inner', label: 'Inner', parent: 0 })],
    }),
    [],
  );
}

/** A worker run in this process: requests and answers are copied as `postMessage` copies them. */
class InProcessWorker extends EventTarget implements LayeredWorkerPort {
  requests = 0;

  postMessage(message: LayeredRequest, transfer: Transferable[]): void {
    this.requests++;
    const request = structuredClone(message, { transfer });
    const answer = answerLayered(request);
    const data = structuredClone(answer.response, { transfer: answer.transfer }) as LayeredResponse;
    queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data })));
  }
}

describe('a placement', () => {
  it('puts back exactly what the layout made, boxes, labels and loops included', () => {
    for (const flow of [boxedFlow(), warmUpFlow(), chainFlow(60)]) {
      for (const room of [null, ROOM]) {
        const laidOut = layoutAndFold(flow, room);
        expect(withPlacement(flow, placementOf(laidOut))).toEqual(laidOut);
      }
    }
  });

  it('is the same from the packed flow a worker is sent as from the flow itself', () => {
    for (const flow of [boxedFlow(), warmUpFlow(), chainFlow(60)]) {
      for (const room of [null, ROOM]) {
        const packed = packFlow(flow);
        const copy = structuredClone({ id: 1, flow: packed, room }, { transfer: packedBuffers(packed) });
        const { response } = answerLayered(copy);
        if ('error' in response) throw new Error(response.error);
        expect(withPlacement(flow, response.placement)).toEqual(layoutAndFold(flow, room));
      }
    }
  });

  it('refuses to be put on a flow of another size, naming both', () => {
    const placement = placementOf(layoutAndFold(boxedFlow(), null));
    expect(() => withPlacement(chainFlow(3), placement)).toThrow(/of 6 nodes and 5 edges cannot be put on a flow of 5 and 4/);
  });

  it('packs a flow into arrays of numbers by node and edge index, and the outlines: no ids, no workflow model', () => {
    const flow = boxedFlow();
    const packed = packFlow(flow);
    const ids = flow.nodes.map((n) => n.id);
    expect([...packed.boxes]).toEqual(flow.nodes.map((n) => (n.type === 'subgraph' ? 1 : 0)));
    expect([...packed.parents]).toEqual(flow.nodes.map((n) => (n.parentId === undefined ? -1 : ids.indexOf(n.parentId))));
    expect([...packed.sources]).toEqual(flow.edges.map((e) => ids.indexOf(e.source)));
    expect([...packed.targets]).toEqual(flow.edges.map((e) => ids.indexOf(e.target)));
    const labelled = flow.edges.findIndex((e) => e.data?.labelBox !== null);
    expect(packed.labels[2 * labelled]).toBe(flow.edges[labelled]?.data?.labelBox?.width);
    const { direction, shapes, ...arrays } = packed;
    expect(direction).toBe(flow.direction);
    expect(shapes).toEqual(flow.nodes.map((n) => (n.type === 'handler' ? n.data.look.shape : 'rect')));
    for (const [name, array] of Object.entries(arrays)) expect(ArrayBuffer.isView(array), name).toBe(true);
  });
});

describe('the layered engine in a worker', () => {
  it('lays a very large workflow out in the worker, as the page would have', async () => {
    const flow = chainFlow(LAYERED_OFF_PAGE_FROM + 200);
    const worker = new InProcessWorker();
    const laidOut = await layoutLayeredFolded(flow, ROOM, () => layeredInWorker(worker));
    expect(worker.requests).toBe(1);
    expect(laidOut).toEqual(layoutAndFold(flow, ROOM));
  });

  it('lays a smaller one out in the page without starting a worker', async () => {
    let asked = 0;
    const flow = chainFlow(40);
    const laidOut = await layoutLayeredFolded(flow, ROOM, () => {
      asked++;
      return null;
    });
    expect(asked).toBe(0);
    expect(laidOut).toEqual(layoutAndFold(flow, ROOM));
  });

  it('answers each request with its own flow when several are in flight', async () => {
    const worker = new InProcessWorker();
    const layouter = layeredInWorker(worker);
    const [small, boxed] = await Promise.all([layouter.layout(chainFlow(20), null), layouter.layout(boxedFlow(), ROOM)]);
    expect(small).toEqual(layoutAndFold(chainFlow(20), null));
    expect(boxed).toEqual(layoutAndFold(boxedFlow(), ROOM));
  });

  it('lays out in the page when the worker fails, and asks a failed worker nothing more', async () => {
    const broken = new (class extends EventTarget implements LayeredWorkerPort {
      posted = 0;
      postMessage(): void {
        this.posted++;
        queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('error'), { message: 'could not load the script' })));
      }
    })();
    const layouter: LayeredLayouter = layeredInWorker(broken);
    const flow = chainFlow(LAYERED_OFF_PAGE_FROM);
    await expect(layouter.layout(flow, null)).rejects.toThrow('The layout worker failed: could not load the script');
    expect(await layoutLayeredFolded(flow, ROOM, () => layouter)).toEqual(layoutAndFold(flow, ROOM));
    expect(broken.posted).toBe(1);
  });

  it('refuses a layout whose post throws, lays it out in the page, and still sends later ones', async () => {
    const worker = new (class extends InProcessWorker {
      refusals = 2;
      override postMessage(message: LayeredRequest, transfer: Transferable[]): void {
        if (this.refusals-- > 0) throw new Error('could not be cloned');
        super.postMessage(message, transfer);
      }
    })();
    const layouter = layeredInWorker(worker);
    await expect(layouter.layout(chainFlow(3), null)).rejects.toThrow('could not be cloned');
    const large = chainFlow(LAYERED_OFF_PAGE_FROM);
    expect(await layoutLayeredFolded(large, ROOM, () => layouter)).toEqual(layoutAndFold(large, ROOM));
    expect(await layouter.layout(chainFlow(20), ROOM)).toEqual(layoutAndFold(chainFlow(20), ROOM));
    expect(worker.requests).toBe(1);
  });

  it('passes on what the engine could not lay out', async () => {
    const refusing = new (class extends EventTarget implements LayeredWorkerPort {
      postMessage(message: LayeredRequest): void {
        const { id } = message;
        queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data: { id, error: 'no room' } })));
      }
    })();
    await expect(layeredInWorker(refusing).layout(chainFlow(3), null)).rejects.toThrow('no room');
  });
});
