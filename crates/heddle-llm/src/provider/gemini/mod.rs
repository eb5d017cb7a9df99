//! Google's Gemini API (`models/{model}:streamGenerateContent?alt=sse`): the request body
//! ([`request`]), the streamed `GenerateContentResponse` chunks ([`stream`]) and Google's
//! error bodies ([`errors`]).
//!
//! Gemini function calls may come without ids; the stream parser then makes ids of its own
//! (starting with [`LOCAL_CALL_ID_PREFIX`]), which are never sent back. Thought signatures
//! (which Gemini 3 requires back on function calls) travel as
//! [`crate::chat::Block::Opaque`] blocks placed just before the text or call they belong to.

pub(crate) mod errors;
pub(crate) mod request;
pub(crate) mod stream;

/// The start of call ids Heddle made up for calls Gemini sent without one.
pub(crate) const LOCAL_CALL_ID_PREFIX: &str = "heddle-gemini-call-";

/// The key of an opaque block's data holding a thought signature.
pub(crate) const SIGNATURE_KEY: &str = "thoughtSignature";
