//! `ui/src/generated/operations.ts`, written from heddle-api's operation table: the UI's
//! request/response methods as an interface, how each is called on each door, and every
//! operation with its kind, route and types (included by the bindings test).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use heddle_api::operations::{CallKind, OPERATIONS, Operation};
use ts_rs::{Config, TS, TypeVisitor};

/// A type as TypeScript names it, and the generated files it needs imported.
struct TsType {
    name: String,
    imports: BTreeSet<String>,
}

/// Collects the exported types a type is made of (`T` itself, or `Vec<T>`'s `T`).
struct Imports<'a> {
    cfg: &'a Config,
    names: BTreeSet<String>,
}

impl TypeVisitor for Imports<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_some() {
            self.names.insert(T::ident(self.cfg));
        } else {
            T::visit_generics(self);
        }
    }
}

fn ts_type<T: TS + 'static + ?Sized>(cfg: &Config) -> TsType {
    let mut imports = Imports {
        cfg,
        names: BTreeSet::new(),
    };
    imports.visit::<T>();
    TsType {
        name: T::name(cfg),
        imports: imports.names,
    }
}

/// The TypeScript side of one operation of the table.
struct OperationTypes {
    name: &'static str,
    doc: &'static str,
    request: Option<TsType>,
    /// `None` for the kinds whose items are not a generated type (run events, index
    /// changes, a file's bytes).
    response: Option<TsType>,
}

macro_rules! operation_types {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($($req:ty)?) -> $res:ty: $kind:ident $(($($arg:tt)*))?;
    )*) => {
        fn operation_types(cfg: &Config) -> Vec<OperationTypes> {
            vec![$(OperationTypes {
                name: stringify!($name),
                doc: concat!($($doc, "\n",)*),
                request: operation_types!(@request cfg $($req)?),
                response: operation_types!(@response cfg $kind $res),
            }),*]
        }
    };
    (@request $cfg:ident) => { None };
    (@request $cfg:ident $req:ty) => { Some(ts_type::<$req>($cfg)) };
    (@response $cfg:ident events $res:ty) => { None };
    (@response $cfg:ident changes $res:ty) => { None };
    (@response $cfg:ident file $res:ty) => { None };
    (@response $cfg:ident $kind:ident $res:ty) => { Some(ts_type::<$res>($cfg)) };
}

heddle_api::for_each_operation!(operation_types);

/// The kinds served on both doors as one request and one answer: the UI calls them all the
/// same way, through `RequestOperations`.
fn is_generic(op: &Operation) -> bool {
    matches!(
        op.kind,
        "blocking" | "pure" | "host" | "host_async" | "launch"
    )
}

fn camel_case(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The `Api` member that calls an operation, `None` for those the UI reaches otherwise
/// (`unwatch_workflow` is the function `watchWorkflow` returns) or not at all.
fn member(op: &Operation) -> Option<String> {
    match op.kind {
        "unwatch" | "changes" => None,
        "file" => Some(camel_case(op.name) + "Url"),
        _ => Some(camel_case(op.name)),
    }
}

fn js_string(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace('"', "'")
}

fn js_opt(text: Option<&str>) -> String {
    text.map_or_else(|| "null".to_owned(), js_string)
}

fn doc_comment(doc: &str, indent: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    format!("{indent}/** {} */\n", lines.join(" "))
}

/// The text of `operations.ts`.
pub fn operations_ts(cfg: &Config) -> String {
    let types = operation_types(cfg);
    assert_eq!(types.len(), OPERATIONS.len());
    let mut imports = BTreeSet::new();
    let mut interface = String::new();
    let mut calls = String::new();
    let mut all = String::new();
    for (op, ty) in OPERATIONS.iter().zip(&types) {
        assert_eq!(op.name, ty.name);
        let request = ty.request.as_ref();
        let response = ty.response.as_ref();
        let member = member(op);
        if is_generic(op) {
            let member = member.clone().unwrap_or_default();
            let response = response.map_or("unknown", |r| r.name.as_str());
            let params = request.map_or(String::new(), |r| format!("req: {}", r.name));
            interface.push_str(&doc_comment(ty.doc, "  "));
            let _ = writeln!(interface, "  {member}({params}): Promise<{response}>;");
            let path = op.http.map_or("", |(_, path)| path);
            let _ = writeln!(
                calls,
                "  {{ member: '{member}', name: '{}', path: '/api{path}', takesRequest: {} }},",
                op.name,
                request.is_some()
            );
            for t in request.into_iter().chain(ty.response.as_ref()) {
                imports.extend(t.imports.iter().cloned());
            }
        }
        let call = match op.call {
            CallKind::Request => "request",
            CallKind::Stream => "stream",
            CallKind::File => "file",
        };
        let http = op.http.map_or("null".to_owned(), |(method, path)| {
            format!("{{ method: '{method}', path: '/api{path}' }}")
        });
        let _ = writeln!(
            all,
            "  {{ name: '{}', kind: '{}', call: '{call}', http: {http}, tauriCommand: {}, member: {}, request: {}, response: {} }},",
            op.name,
            op.kind,
            op.tauri_command,
            js_opt(member.as_deref()),
            js_opt(request.map(|r| r.name.as_str())),
            js_opt(response.map(|r| r.name.as_str())),
        );
    }
    let mut text = String::from(
        "// Generated from heddle_api::for_each_operation! by crates/heddle-api/tests/bindings/operations.rs. Do not edit.\n\n",
    );
    for name in &imports {
        let _ = writeln!(text, "import type {{ {name} }} from './{name}';");
    }
    let _ = write!(
        text,
        "\n/** The operations every door serves as one request and one answer, as `Api` methods. */\n\
         export interface RequestOperations {{\n{interface}}}\n\n\
         /** How each of them is called: the Tauri command (`name`, with `{{ req }}` when it takes a request) or `POST` to `path`. */\n\
         export const REQUEST_OPERATIONS = [\n{calls}] as const;\n\n\
         /** One of `REQUEST_OPERATIONS`. */\n\
         export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];\n\n\
         /**\n * Every operation: its kind in the table, how it is called, its HTTP route (`null`: desktop\n * only), whether the window has a Tauri command of its name, the `Api` member that calls it\n * (`null`: none), and its types (`null`: none, or not a generated type).\n */\n\
         export const OPERATIONS = [\n{all}] as const;\n\n\
         /** The `Api` members that call an operation. */\n\
         export type OperationMember = NonNullable<(typeof OPERATIONS)[number]['member']>;\n"
    );
    text
}
