//! The workflow dialect's attributes.

use super::{AttrSpec, Source};
use crate::value::ValueType;

/// Fidelity modes, in the order the docs list them.
pub const FIDELITY: &[&str] = &[
    "full",
    "compact",
    "summary:high",
    "summary:medium",
    "summary:low",
    "truncate",
];

const RETRY_POLICY: &[&str] = &["none", "standard", "aggressive", "linear", "patient"];
const REASONING_EFFORT: &[&str] = &["low", "medium", "high"];
const LANGUAGE: &[&str] = &["shell", "python"];
const RANKDIR: &[&str] = &["TB", "LR", "BT", "RL"];

const fn d(
    name: &'static str,
    scopes: &'static str,
    ty: ValueType,
    summary: &'static str,
) -> AttrSpec {
    AttrSpec {
        name,
        aliases: &[],
        scopes,
        ty,
        source: Source::Dialect,
        checked_by: None,
        summary,
    }
}

const TEXT: ValueType = ValueType::String;
const COUNT: ValueType = ValueType::Integer { min: 0 };
const POSITIVE: ValueType = ValueType::Integer { min: 1 };
const BOOL: ValueType = ValueType::Boolean;
const DURATION: ValueType = ValueType::Duration;

/// The dialect's attributes.
pub static SPECS: &[AttrSpec] = &[
    // Graph.
    d(
        "goal",
        "G",
        TEXT,
        "What the whole run should achieve; shown to every stage.",
    ),
    d(
        "label",
        "GSNE",
        TEXT,
        "Display name; for a subgraph it also becomes a class.",
    ),
    AttrSpec {
        checked_by: Some("stylesheet_syntax"),
        ..d(
            "model_stylesheet",
            "G",
            ValueType::Stylesheet,
            "CSS-like rules assigning models to nodes.",
        )
    },
    AttrSpec {
        aliases: &["default_max_retry"],
        ..d(
            "default_max_retries",
            "G",
            COUNT,
            "Retries for nodes without `max_retries`.",
        )
    },
    AttrSpec {
        checked_by: Some("retry_target_exists"),
        ..d(
            "retry_target",
            "GN",
            ValueType::NodeId,
            "Node to jump to when this fails or a goal gate is unmet.",
        )
    },
    AttrSpec {
        checked_by: Some("retry_target_exists"),
        ..d(
            "fallback_retry_target",
            "GN",
            ValueType::NodeId,
            "Node to jump to when `retry_target` is unavailable.",
        )
    },
    AttrSpec {
        checked_by: Some("fidelity_valid"),
        ..d(
            "default_fidelity",
            "G",
            ValueType::Enum(FIDELITY),
            "Context fidelity when neither edge nor node sets one.",
        )
    },
    d(
        "default_thread",
        "G",
        TEXT,
        "Thread id for `full` fidelity nodes without `thread_id`.",
    ),
    d(
        "max_node_visits",
        "G",
        COUNT,
        "Visits of any one node after which the run fails (0: no limit).",
    ),
    d(
        "checkpoint_exclude",
        "G",
        TEXT,
        "Comma-separated globs of files kept out of git checkpoints.",
    ),
    d(
        "stall_timeout",
        "G",
        DURATION,
        "Time without progress after which the run fails.",
    ),
    d(
        "max_cost_usd",
        "G",
        ValueType::Float { min: 0.0 },
        "US dollars the run's LLM calls may cost; over it the run stops at the next stage (a Heddle extension).",
    ),
    d(
        "max_tokens",
        "G",
        COUNT,
        "Input plus output tokens the run's LLM calls may use; over it the run stops at the next stage (a Heddle extension).",
    ),
    d(
        "rankdir",
        "G",
        ValueType::Enum(RANKDIR),
        "Layout direction (Graphviz).",
    ),
    // Node.
    AttrSpec {
        checked_by: Some("shape_known"),
        ..d(
            "shape",
            "N",
            TEXT,
            "Graphviz shape; selects the handler when `type` is unset.",
        )
    },
    AttrSpec {
        checked_by: Some("type_known"),
        ..d("type", "N", TEXT, "Handler type; overrides the shape.")
    },
    d(
        "class",
        "N",
        TEXT,
        "Stylesheet classes, comma or space separated.",
    ),
    d(
        "prompt",
        "N",
        ValueType::TextOrFile,
        "The instructions, or `@path` to a file holding them.",
    ),
    d("max_retries", "N", COUNT, "Extra attempts after the first."),
    d(
        "retry_policy",
        "N",
        ValueType::Enum(RETRY_POLICY),
        "Backoff preset for retries.",
    ),
    d(
        "goal_gate",
        "N",
        ValueType::Flag,
        "The run may only exit once this node succeeded.",
    ),
    AttrSpec {
        checked_by: Some("fidelity_valid"),
        ..d(
            "fidelity",
            "NE",
            ValueType::Enum(FIDELITY),
            "How much prior context the stage sees.",
        )
    },
    d(
        "thread_id",
        "NE",
        TEXT,
        "Conversation thread shared by `full` fidelity stages.",
    ),
    d("timeout", "N", DURATION, "Time limit for one attempt."),
    d(
        "max_visits",
        "N",
        POSITIVE,
        "Visits after which the run fails.",
    ),
    AttrSpec {
        aliases: &["llm_model"],
        ..d("model", "N", TEXT, "LLM model id.")
    },
    AttrSpec {
        aliases: &["llm_provider"],
        ..d("provider", "N", TEXT, "LLM provider.")
    },
    d(
        "reasoning_effort",
        "N",
        ValueType::Enum(REASONING_EFFORT),
        "Reasoning effort for models that support it.",
    ),
    d(
        "auto_status",
        "N",
        BOOL,
        "Mark the stage successful when the agent reports no status.",
    ),
    d(
        "allow_partial",
        "N",
        BOOL,
        "Accept `partial_success` when retries run out.",
    ),
    d(
        "output_schema",
        "N",
        ValueType::Schema,
        "`routing` or `@path` to a JSON Schema the output must match.",
    ),
    d(
        "output_retries",
        "N",
        COUNT,
        "Repair attempts when the output does not match its schema.",
    ),
    d(
        "backend",
        "N",
        TEXT,
        "Agent backend (built-in loop or an external agent).",
    ),
    AttrSpec {
        aliases: &["tool_command"],
        ..d("script", "N", TEXT, "The command a command node runs.")
    },
    d(
        "language",
        "N",
        ValueType::Enum(LANGUAGE),
        "Interpreter for `script`.",
    ),
    AttrSpec {
        checked_by: Some("join_policy_valid"),
        ..d(
            "join_policy",
            "N",
            TEXT,
            "When a parallel node's branches have done enough: `wait_all`, `first_success`, `k_of_n(N)` or `quorum(F)`.",
        )
    },
    d(
        "error_policy",
        "N",
        ValueType::Enum(crate::ErrorPolicy::NAMES),
        "What a failing branch does: `continue`, `fail_fast` (stop the others) or `ignore` (count it as a success).",
    ),
    d(
        "max_parallel",
        "N",
        POSITIVE,
        "Branches a parallel node runs at once.",
    ),
    d("duration", "N", DURATION, "How long a wait node sleeps."),
    d(
        "acp.command",
        "N",
        TEXT,
        "Command line that starts an Agent Client Protocol agent (`backend=\"acp\"`).",
    ),
    d(
        "cli.command",
        "N",
        TEXT,
        "Command line that gets the prompt on stdin and answers on stdout (`backend=\"cli\"`); \
         without it, the claude, codex or gemini CLI of the model's family runs.",
    ),
    d(
        "max_turns",
        "N",
        POSITIVE,
        "Most model calls an agent stage makes before it fails.",
    ),
    d(
        "human.default_choice",
        "N",
        TEXT,
        "Choice a human gate takes when nobody answers.",
    ),
    AttrSpec {
        aliases: &["stack.child_dotfile"],
        ..d(
            "stack.child_workflow",
            "GN",
            TEXT,
            "Workflow file a manager loop supervises (on the graph: for every manager loop).",
        )
    },
    d(
        "stack.child_dot_source",
        "N",
        TEXT,
        "A manager loop's child workflow written inline as DOT text.",
    ),
    d(
        "stack.child_workdir",
        "GN",
        TEXT,
        "Folder a manager loop's child runs in, relative to the run's work dir.",
    ),
    d(
        "manager.poll_interval",
        "N",
        DURATION,
        "How often a manager loop observes its child.",
    ),
    d(
        "manager.max_cycles",
        "N",
        POSITIVE,
        "Observation cycles before a manager loop gives up.",
    ),
    AttrSpec {
        checked_by: Some("condition_syntax"),
        ..d(
            "manager.stop_condition",
            "N",
            ValueType::Condition,
            "Condition that ends a manager loop.",
        )
    },
    d(
        "manager.actions",
        "N",
        TEXT,
        "What a manager loop may do (e.g. `observe,steer`).",
    ),
    d("manager.*", "N", TEXT, "Further manager loop settings."),
    // Edge.
    AttrSpec {
        checked_by: Some("condition_syntax"),
        ..d(
            "condition",
            "E",
            ValueType::Condition,
            "The edge is taken only when this holds.",
        )
    },
    d(
        "weight",
        "E",
        ValueType::Float { min: f64::MIN },
        "Preference among eligible edges (higher first); a number, as in Graphviz.",
    ),
    d(
        "freeform",
        "E",
        BOOL,
        "On a human gate's edge: free-text answers go this way.",
    ),
    d(
        "loop_restart",
        "E",
        BOOL,
        "Taking the edge restarts the run with a fresh context.",
    ),
];
