/**
 * Why an editing operation was refused, and the result type the editing functions return
 * instead of throwing: the canvas shows `refusal.message` and leaves the workflow as it is.
 */

/** What kind of refusal it is (stable, for tests and for choosing how to show it). */
export type RefusalCode =
  /** A second start node (the dialect allows exactly one). */
  | 'start_exists'
  /** A second exit node when the caller did not allow one. */
  | 'exit_exists'
  /** The node named is not in the workflow. */
  | 'node_not_found'
  /** The edge named is not in the workflow. */
  | 'edge_not_found'
  /** An edge would lead into the start node. */
  | 'into_start'
  /** An edge would leave an exit node. */
  | 'out_of_exit'
  /** An edge exactly like an existing one. */
  | 'duplicate_edge'
  /** An empty node id. */
  | 'empty_id'
  /** A node id outside `[A-Za-z_][A-Za-z0-9_]*`. */
  | 'invalid_id'
  /** A DOT keyword used as a node id. */
  | 'reserved_id'
  /** A node id another node already has. */
  | 'id_taken'
  /** A rename that would change what the node does (ids `start`, `exit`, `end` imply kinds). */
  | 'kind_change'
  /** An empty attribute key. */
  | 'empty_key';

/** A refused operation: a code and a sentence for the person. */
export type Refusal = { code: RefusalCode; message: string };

/** The value, or why there is none. */
export type Checked<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export function accept<T>(value: T): Checked<T> {
  return { ok: true, value };
}

export function refuse<T>(code: RefusalCode, message: string): Checked<T> {
  return { ok: false, refusal: { code, message } };
}
