//! OpenAI's Responses API: the request body ([`request`]) and the event stream
//! ([`stream`]).

pub(crate) mod request;
pub(crate) mod stream;
