// Generated from heddle_engine::event::EVENT_NAMES by crates/heddle-api/tests/bindings.rs. Do not edit.

/** Every run event's name (`RunEvent['event']`), in declaration order. */
export const RUN_EVENT_NAMES = ['run.started', 'run.completed', 'run.failed', 'run.cancelled', 'run.rolled_back', 'run.recovered', 'stage.started', 'stage.completed', 'stage.failed', 'stage.retrying', 'edge.selected', 'run.ended_without_edge', 'goal_gate.checked', 'checkpoint.saved', 'parallel.branch.started', 'parallel.branch.completed', 'interview.started', 'interview.answered', 'interview.timed_out', 'command.output', 'agent.text', 'agent.tool_call.started', 'agent.tool_call.completed', 'agent.usage', 'agent.note', 'artifact.captured', 'loop.restarted', 'manager.cycle', 'warning'] as const;
