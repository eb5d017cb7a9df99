//! The Tauri commands, expanded from heddle-api's operation table
//! ([`heddle_api::for_each_operation!`]): one command per operation, named as the operation,
//! taking its request as the single argument `req` and returning heddle-api's result
//! unchanged, so the UI sees the same types and error codes as over HTTP. The kinds that need
//! the window (streams to a channel, Downloads) are hand-written in `run_commands` and
//! `file_watch_commands`; [`invoke_handler`] registers them all.

use heddle_api::{ApiError, LaunchInfo, RunHost};
use tauri::State;

/// One command of the table. Generic kinds become a one-line adapter here; the others name
/// the module holding their hand-written command, for [`invoke_handler`].
macro_rules! tauri_command {
    (blocking [$f:path] $(#[$m:meta])* $name:ident($req:ty) -> $res:ty) => {
        $(#[$m])*
        #[tauri::command(async)]
        fn $name(req: $req) -> Result<$res, ApiError> {
            $f(&req)
        }
    };
    (pure [$f:path] $(#[$m:meta])* $name:ident() -> $res:ty) => {
        $(#[$m])*
        #[tauri::command]
        fn $name() -> $res {
            $f()
        }
    };
    (pure [$f:path] $(#[$m:meta])* $name:ident($req:ty) -> $res:ty) => {
        $(#[$m])*
        #[tauri::command]
        fn $name(req: $req) -> $res {
            $f(&req)
        }
    };
    (host [$method:ident] $(#[$m:meta])* $name:ident($req:ty) -> $res:ty) => {
        $(#[$m])*
        #[tauri::command(async)]
        fn $name(host: State<'_, RunHost>, req: $req) -> Result<$res, ApiError> {
            host.$method(&req)
        }
    };
    (host_async [$method:ident] $(#[$m:meta])* $name:ident($req:ty) -> $res:ty) => {
        $(#[$m])*
        #[tauri::command]
        async fn $name(host: State<'_, RunHost>, req: $req) -> Result<$res, ApiError> {
            host.$method(req).await
        }
    };
    (launch [] $(#[$m:meta])* $name:ident() -> $res:ty) => {
        $(#[$m])*
        #[tauri::command]
        fn $name(launch: State<'_, LaunchInfo>) -> $res {
            launch.inner().clone()
        }
    };
    // Hand-written (see `handler_list!`), or not a command (`changes`, `file`).
    ($kind:ident [$($arg:tt)*] $($rest:tt)*) => {};
}

macro_rules! tauri_commands {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($($req:ty)?) -> $res:ty: $kind:ident $(($($arg:tt)*))?;
    )*) => {
        $(
            tauri_command! { $kind [$($($arg)*)?] $(#[doc = $doc])* $name($($req)?) -> $res }
        )*

        /// Every command of the table, for `tauri::Builder::invoke_handler`.
        pub(crate) fn invoke_handler() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
            handler_list!([] $($kind $name,)*)
        }
    };
}

/// Collects the commands' paths, then hands them to `tauri::generate_handler!` (which takes
/// a plain list, so the paths are gathered first).
macro_rules! handler_list {
    ([$($done:tt)*]) => { tauri::generate_handler![$($done)*] };
    ([$($done:tt)*] changes $name:ident, $($rest:tt)*) => { handler_list!([$($done)*] $($rest)*) };
    ([$($done:tt)*] file $name:ident, $($rest:tt)*) => { handler_list!([$($done)*] $($rest)*) };
    ([$($done:tt)*] events $name:ident, $($rest:tt)*) => {
        handler_list!([$($done)* crate::run_commands::$name,] $($rest)*)
    };
    ([$($done:tt)*] download $name:ident, $($rest:tt)*) => {
        handler_list!([$($done)* crate::run_commands::$name,] $($rest)*)
    };
    ([$($done:tt)*] watch $name:ident, $($rest:tt)*) => {
        handler_list!([$($done)* crate::file_watch_commands::$name,] $($rest)*)
    };
    ([$($done:tt)*] unwatch $name:ident, $($rest:tt)*) => {
        handler_list!([$($done)* crate::file_watch_commands::$name,] $($rest)*)
    };
    ([$($done:tt)*] $kind:ident $name:ident, $($rest:tt)*) => {
        handler_list!([$($done)* $name,] $($rest)*)
    };
}

heddle_api::for_each_operation!(tauri_commands);
