// Generated from heddle_api::CARD_ATTRIBUTES by crates/heddle-api/tests/bindings.rs. Do not edit.

/** The node attributes a node's card shows, the only ones a run's graph keeps. */
export const CARD_ATTRIBUTES = ['model', 'language', 'duration', 'stack.child_workflow'] as const;

/** One of them. */
export type CardAttribute = (typeof CARD_ATTRIBUTES)[number];
