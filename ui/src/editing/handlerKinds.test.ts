import { describe, expect, it } from 'vitest';
import { HANDLER_KINDS } from '../workflow-view/look/handlerLooks';
import { kindFromId, kindFromShape, kindFromType, resolveKind, shapeOfKind } from './handlerKinds';

describe('handler kinds', () => {
  it('gives every kind a shape that selects it again', () => {
    for (const kind of HANDLER_KINDS) expect(kindFromShape(shapeOfKind(kind))).toBe(kind);
    expect(shapeOfKind('fan_in')).toBe('tripleoctagon');
  });

  it('reads shapes without case and types exactly', () => {
    expect(kindFromShape(' mdiamond ')).toBe('start');
    expect(kindFromShape('ellipse')).toBeNull();
    expect(kindFromType('wait.human')).toBe('human');
    expect(kindFromType(' codergen ')).toBe('agent');
    expect(kindFromType('Human')).toBeNull();
  });

  it('reads start, exit and end ids in any case', () => {
    expect(kindFromId('START')).toBe('start');
    expect(kindFromId('End')).toBe('exit');
    expect(kindFromId('exit')).toBe('exit');
    expect(kindFromId('ending')).toBeNull();
  });

  it('resolves type first, then a shape other than box, then the id', () => {
    expect(resolveKind('tool', 'hexagon', 'start')).toBe('command');
    expect(resolveKind('bogus', 'hexagon', 'start')).toBe('human');
    expect(resolveKind(null, 'box', 'start')).toBe('start');
    expect(resolveKind(null, 'Msquare', 'start')).toBe('exit');
    expect(resolveKind(null, 'ellipse', 'plan')).toBe('agent');
    expect(resolveKind(null, null, 'end')).toBe('exit');
  });
});
