//! The list of API operations, declared once in [`for_each_operation!`](crate::for_each_operation)
//! and read from there by every door: src-tauri expands it into its commands, the
//! `generate_handler!` list and (through `build.rs`) the permissions; heddle-server into its
//! routes; the bindings test into `ui/src/generated/operations.ts`, from which the UI's `Api`
//! and its two implementations come. [`OPERATIONS`] is the same list as data, for the tests
//! that hold the hand-kept files (the window's capability, docs/api.md) to it.

/// How an operation is called: what kind of answer it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// One request, one answer (or an `ApiError`).
    Request,
    /// A stream of items until the client stops or the source ends.
    Stream,
    /// A file's bytes, served with range requests.
    File,
}

/// One operation of the API, as [`for_each_operation!`](crate::for_each_operation) declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    /// Its name on every door: the Tauri command, `POST /api/{name}`, the docs.
    pub name: &'static str,
    /// Its kind in the table (`blocking`, `host_async`, `events`…), which says how doors serve it.
    pub kind: &'static str,
    /// One answer, a stream of items, or a file's bytes.
    pub call: CallKind,
    /// Its HTTP method and path (under `/api`), when heddle-server serves it.
    pub http: Option<(&'static str, &'static str)>,
    /// Whether the desktop window has a Tauri command of this name.
    pub tauri_command: bool,
    /// The request type as written in the table (`None`: it takes none).
    pub request: Option<&'static str>,
    /// The response type as written in the table (each item's, for a stream).
    pub response: &'static str,
    /// The table's doc comment.
    pub doc: &'static str,
}

/// The doors of one kind of operation: (call, HTTP method and path, Tauri command). A path
/// given in the table wins over `/{name}`.
macro_rules! operation_doors {
    (events, $name:ident, $path:literal) => {
        (CallKind::Stream, Some(("GET", $path)), true)
    };
    (watch, $name:ident, $path:literal) => {
        (CallKind::Stream, Some(("GET", $path)), true)
    };
    (changes, $name:ident, $path:literal) => {
        (CallKind::Stream, Some(("GET", $path)), false)
    };
    (file, $name:ident, $path:literal) => {
        (CallKind::File, Some(("GET", $path)), false)
    };
    (unwatch, $name:ident,) => {
        (CallKind::Request, None, true)
    };
    (download, $name:ident,) => {
        (CallKind::Request, None, true)
    };
    ($kind:ident, $name:ident, $($arg:tt)*) => {
        (
            CallKind::Request,
            Some(("POST", concat!("/", stringify!($name)))),
            true,
        )
    };
}

macro_rules! operation_list {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($($req:ty)?) -> $res:ty: $kind:ident $(($($arg:tt)*))?;
    )*) => {
        /// Every operation, in the table's order.
        pub const OPERATIONS: &[Operation] = &[$({
            let (call, http, tauri_command) =
                operation_doors!($kind, $name, $($($arg)*)?);
            Operation {
                name: stringify!($name),
                kind: stringify!($kind),
                call,
                http,
                tauri_command,
                request: operation_list!(@request $($req)?),
                response: stringify!($res),
                doc: concat!($($doc, "\n",)*),
            }
        }),*];
    };
    (@request) => { None };
    (@request $req:ty) => { Some(stringify!($req)) };
}

crate::for_each_operation!(operation_list);

/// The operation of this name.
pub fn operation(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|op| op.name == name)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn names_and_routes_are_unique() {
        let names: BTreeSet<_> = OPERATIONS.iter().map(|op| op.name).collect();
        assert_eq!(names.len(), OPERATIONS.len());
        let routes: BTreeSet<_> = OPERATIONS.iter().filter_map(|op| op.http).collect();
        let served = OPERATIONS.iter().filter(|op| op.http.is_some()).count();
        assert_eq!(routes.len(), served);
    }

    #[test]
    fn request_operations_are_posted_under_their_name() {
        let open = operation("open_workflow").unwrap();
        assert_eq!(open.http, Some(("POST", "/open_workflow")));
        assert_eq!(open.call, CallKind::Request);
        assert!(open.tauri_command);
        assert!(open.request.unwrap().ends_with("OpenWorkflowRequest"));
        let events = operation("follow_events").unwrap();
        assert_eq!(events.http, Some(("GET", "/events")));
        assert_eq!(events.call, CallKind::Stream);
        let save = operation("save_run_file").unwrap();
        assert_eq!((save.http, save.tauri_command), (None, true));
        assert_eq!(operation("list_templates").unwrap().request, None);
    }
}
