//! heddle-workflow owns the workflow dialect: the typed model built from a DOT document,
//! handler kinds, typed attribute values, the condition language, the model stylesheet and
//! the validation (lint) rules.
//!
//! The entry point is [`load_source`]: parse, build the [`Workflow`], validate, and get
//! [`Diagnostic`]s that [`render_diagnostic`] prints the way rustc does. Editors change a
//! workflow with [`WorkflowEdit`]s through [`apply_edit`].

mod access;
mod adjacency;
mod build;
pub mod catalog;
pub mod condition;
mod diagnostic;
mod duration;
mod edit;
mod effects;
mod extension;
mod files;
mod hash;
mod join_policy;
mod kind;
pub mod lint;
mod load;
mod locate;
mod manager_child;
mod model;
mod outcome;
mod render;
mod run_config;
pub mod stylesheet;
mod suggest;
pub mod template;
mod value;

pub use access::Attrs;
pub use adjacency::Adjacency;
pub use build::{class_from_label, split_classes};
pub use condition::{Condition, ConditionContext, ConditionError};
pub use diagnostic::{Diagnostic, Severity};
pub use duration::{DurationError, format_duration, parse_duration};
pub use edit::{WorkflowEdit, WorkflowEditError, apply_edit, edit_source, fresh_node_id};
pub use effects::{
    ChildWorkflow, CommandEffect, ExternalAgent, NodeEffect, OutsideFile, WorkflowEffects,
    workflow_effects,
};
pub use extension::{
    WORKFLOW_DOT_FOLDERS, WORKFLOW_EXTENSIONS, is_workflow_path, workflow_extensions_text,
};
pub use files::{FileSource, MemoryFiles, OsFiles, resolve_reference};
pub use join_policy::{ErrorPolicy, JoinPolicy};
pub use kind::{GRAPHVIZ_SHAPES, KIND_SHAPES, TYPE_NAMES, is_graphviz_shape};
pub use lint::{RuleInfo, rules};
pub use load::{Loaded, load_source, load_source_with};
pub use manager_child::{ChildSource, manager_child, manager_child_workdir};
pub use model::*;
pub use outcome::{
    FAILURE_CLASS_ALIASES, OUTCOME_ALIASES, OUTCOMES, canonical_outcome, failure_class_matches,
};
pub use render::render_diagnostic;
pub use run_config::{
    DEFAULT_GRAPH, RUN_CONFIG_NAMES, RunConfig, RunConfigError, find_run_config, parse_run_config,
};
pub use stylesheet::{Stylesheet, StylesheetError};
pub use suggest::{closest, edit_distance};
pub use value::{ValueError, ValueType, format_allowed, parse_value, typed_value};
