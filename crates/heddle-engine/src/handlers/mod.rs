//! The handlers: what each kind of node does. The run loop ([`crate::run`]) calls them; each
//! takes plain inputs and returns an [`crate::Outcome`].

pub mod command;
pub mod human;
pub mod llm_stage;
pub mod wait;
