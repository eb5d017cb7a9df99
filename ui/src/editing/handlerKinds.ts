/**
 * The `type` values the inspector offers for a node, mirroring `TYPE_NAMES` in
 * `crates/heddle-workflow/src/kind.rs`. Which kind a node has, and the shape a new node
 * gets, is decided in Rust.
 */
import type { HandlerKind } from '../generated/HandlerKind';

/** Every accepted `type` value with its kind: Attractor's names first, then Heddle's. */
export const TYPE_NAMES: readonly (readonly [string, HandlerKind])[] = [
  ['start', 'start'],
  ['exit', 'exit'],
  ['codergen', 'agent'],
  ['agent', 'agent'],
  ['prompt', 'prompt'],
  ['tool', 'command'],
  ['command', 'command'],
  ['wait.human', 'human'],
  ['human', 'human'],
  ['conditional', 'conditional'],
  ['parallel', 'parallel'],
  ['parallel.fan_in', 'fan_in'],
  ['fan_in', 'fan_in'],
  ['wait', 'wait'],
  ['stack.manager_loop', 'manager_loop'],
  ['manager_loop', 'manager_loop'],
];
