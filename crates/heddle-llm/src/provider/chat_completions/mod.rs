//! OpenAI-compatible Chat Completions: the request body ([`request`]) and the chunk stream
//! ([`stream`]).

pub(crate) mod request;
pub(crate) mod stream;
