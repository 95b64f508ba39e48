//! Reads FlowMCP `.mjs` schema modules statically (DESIGN.md §3). Nothing is executed: the
//! module is parsed with oxc, and only static constructs are evaluated into JSON — literals,
//! `-`/`+` numbers, templates without expressions, references to top-level `const`s, object and
//! array literals with shorthand, spreads and computed keys, and `JSON.stringify(…)` — with
//! the property order and the dropping of functions and `undefined` that node's
//! `JSON.stringify(main)` shows. Anything else is a located `SRC-005` error for the export that
//! needed it.
//!
//! Besides the export values, one pass over the whole module finds every import (static,
//! re-export, dynamic, `require`), every `fetch(…)` call, and the tools and phases of the
//! `handlers` export.
//!
//! Deeply nested input cannot overflow the stack: a pre-scan estimates the parser's recursion
//! and refuses modules beyond [`MAX_NESTING`]; typical modules are read on the caller's thread,
//! anything nested more deeply on a helper thread with a large stack.

mod collect;
mod error;
mod eval;
pub mod gate;
mod handlers;
mod scan;
mod value;
mod walk;

#[cfg(test)]
mod tests;

pub use error::SourceError;

use collect::{Binding, ExportTarget};
use eval::{EvalError, Evaluator, MAX_EVAL_DEPTH};
use oxc_allocator::Allocator;
use oxc_ast::ast::Program;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{SourceType, Span as OxcSpan};
use scan::LineIndex;
use serde::Serialize;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use value::{ConvertError, JsVal, into_json};

/// Larger module files are refused without being read (`SRC-002`).
pub const MAX_MODULE_BYTES: u64 = 4 * 1024 * 1024;

/// The deepest nesting (brackets plus nested expressions and statements, as estimated before
/// parsing) a module may have; deeper modules are refused with `SRC-005`.
pub const MAX_NESTING: u32 = 1000;

/// Modules estimated at most this deep are read on the caller's thread.
const FAST_NESTING: u32 = 96;
/// Evaluation and walk depths the caller's thread is trusted with; deeper input is read again
/// on the helper thread.
const FAST_EVAL_DEPTH: u32 = 96;
const FAST_WALK_DEPTH: u32 = 256;
/// The walk's limit on the helper thread (the pre-scan keeps real modules far below it).
const MAX_WALK_DEPTH: u32 = 8192;
/// The helper thread's stack: ample for `MAX_NESTING` even in debug builds.
const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A position in the module: `line`/`col` 1-based (`col` in characters), `start`/`end` byte
/// offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub line: u32,
    pub col: u32,
    pub start: u32,
    pub end: u32,
}

/// A module read statically.
#[derive(Debug, Clone)]
pub struct Module {
    pub path: PathBuf,
    /// Every exported name, in source order.
    pub exports: Vec<Export>,
    /// Every static `import … from 'x'` / `import 'x'`, `export … from 'x'`, dynamic `import(…)`
    /// and `require(…)` anywhere in the module, in source order.
    pub imports: Vec<ImportStatement>,
    /// The `handlers` export, read statically.
    pub handlers: Option<Handlers>,
    /// Every call `fetch(…)`, `globalThis.fetch(…)`, `window.fetch(…)` (also `self.`, `global.`,
    /// `globalThis['fetch']`, optional calls) anywhere in the module: inside handlers and other
    /// functions, and at the top level.
    pub fetch_calls: Vec<Span>,
}

#[derive(Debug, Clone)]
pub struct Export {
    pub name: String,
    /// Where the exported value is declared (for `export { a as b }`: the declaration of `a`).
    pub span: Span,
    pub value: Result<ExportValue, SourceError>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExportValue {
    /// The value as `JSON.stringify` would print it (an export of `undefined` is `null`).
    Json(serde_json::Value),
    /// A function, method or class (opaque).
    Function { span: Span },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportStatement {
    /// The module specifier; for a dynamic `import(…)` or `require(…)` whose argument is not a
    /// string literal, the argument's source text.
    pub source: String,
    pub kind: ImportKind,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImportKind {
    /// `import … from 'x'`, `import 'x'`
    Static,
    /// `import(…)`
    Dynamic,
    /// `require(…)`
    Require,
    /// `export … from 'x'`, `export * from 'x'`
    ReExport,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Handlers {
    /// The handlers value (the factory function or the object literal).
    pub span: Span,
    pub tools: Vec<ToolHandlers>,
    /// `false` when the tool map could not be seen completely (a factory that computes it,
    /// spreads or keys that need evaluation, a tool whose handler object is not a literal).
    pub complete: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolHandlers {
    pub tool: String,
    pub pre_request: bool,
    pub execute_request: bool,
    pub post_request: bool,
}

impl Module {
    pub fn export(&self, name: &str) -> Option<&Export> {
        self.exports.iter().find(|export| export.name == name)
    }

    /// The schema object node's loader would use: export `main`, else `schema`. `SRC-006` when
    /// neither exists, the export's own error when it is not static, `SRC-007` when it is a
    /// function or not a JSON object.
    pub fn schema_main(&self) -> Result<&serde_json::Value, SourceError> {
        let Some(name) = self.schema_export_name() else {
            return Err(SourceError::NoSchemaExport {
                path: self.path.clone(),
                exports: self.exports.iter().map(|e| e.name.clone()).collect(),
            });
        };
        let export = self.export(name).expect("schema_export_name found it");
        let found = match &export.value {
            Err(err) => return Err(err.clone()),
            Ok(ExportValue::Json(value @ serde_json::Value::Object(_))) => return Ok(value),
            Ok(ExportValue::Function { .. }) => "a function",
            Ok(ExportValue::Json(serde_json::Value::Array(_))) => "an array",
            Ok(ExportValue::Json(serde_json::Value::String(_))) => "a string",
            Ok(ExportValue::Json(serde_json::Value::Number(_))) => "a number",
            Ok(ExportValue::Json(serde_json::Value::Bool(_))) => "a boolean",
            Ok(ExportValue::Json(serde_json::Value::Null)) => "null or undefined",
        };
        Err(SourceError::NotAnObject {
            path: self.path.clone(),
            line: export.span.line,
            col: export.span.col,
            export: name.to_string(),
            found: found.to_string(),
        })
    }

    /// `"main"` or `"schema"`: the export [`Module::schema_main`] reads.
    pub fn schema_export_name(&self) -> Option<&str> {
        ["main", "schema"]
            .into_iter()
            .find(|name| self.export(name).is_some())
    }
}

/// Reads and parses a module file. The size is checked from the metadata before anything is
/// read, then the bytes are checked to be UTF-8.
pub fn read_module(path: &Path) -> Result<Module, SourceError> {
    let unreadable = |reason: String| SourceError::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => unreadable("no such file".into()),
        _ => unreadable(err.to_string()),
    })?;
    if meta.is_dir() {
        return Err(unreadable("is a directory, not a module file".into()));
    }
    if !meta.is_file() {
        return Err(unreadable("not a regular file".into()));
    }
    let too_large = |size: u64| SourceError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: MAX_MODULE_BYTES,
    };
    if meta.len() > MAX_MODULE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_MODULE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|err| unreadable(err.to_string()))?;
    if bytes.len() as u64 > MAX_MODULE_BYTES {
        return Err(too_large(bytes.len() as u64)); // it grew while being read
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid = err.valid_up_to();
            let prefix = std::str::from_utf8(&bytes[..valid]).expect("valid up to here");
            let (line, col) = scan::line_col_of_prefix(prefix);
            return Err(SourceError::NotUtf8 {
                path: path.to_path_buf(),
                line,
                col,
                byte: bytes[valid],
            });
        }
    };
    parse_module(path, text)
}

/// Parses module text; `path` is only used in the result and in messages.
pub fn parse_module(path: &Path, text: &str) -> Result<Module, SourceError> {
    if text.len() as u64 > MAX_MODULE_BYTES {
        return Err(SourceError::TooLarge {
            path: path.to_path_buf(),
            size: text.len() as u64,
            limit: MAX_MODULE_BYTES,
        });
    }
    let lines = LineIndex::new(text);
    let estimate = scan::nesting_estimate(text, MAX_NESTING).map_err(|too_deep| {
        let (line, col) = lines.line_col(too_deep.offset);
        SourceError::NonStatic {
            path: path.to_path_buf(),
            line,
            col,
            construct: format!("nesting deeper than {MAX_NESTING} levels"),
            export: None,
        }
    })?;
    if estimate <= FAST_NESTING {
        match analyze_guarded(path, text, &lines, false) {
            Err(Failure::Retry) => {}
            Ok(module) => return Ok(module),
            Err(Failure::Error(err)) => return Err(err),
        }
    }
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("flowmcp-source".into())
            .stack_size(HELPER_STACK_BYTES)
            .spawn_scoped(scope, || analyze_guarded(path, text, &lines, true))
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(Ok(module))) => Ok(module),
        Ok(Ok(Err(Failure::Error(err)))) => Err(err),
        Ok(Ok(Err(Failure::Retry))) | Ok(Err(_)) => Err(internal_error(path)),
        Err(err) => Err(SourceError::Unreadable {
            path: path.to_path_buf(),
            reason: format!("cannot start the parser thread: {err}"),
        }),
    }
}

enum Failure {
    /// Limits of the caller's thread reached: read again on the helper thread.
    Retry,
    Error(SourceError),
}

fn internal_error(path: &Path) -> SourceError {
    SourceError::Syntax {
        path: path.to_path_buf(),
        line: 1,
        col: 1,
        message: "the parser failed on this input (internal error)".into(),
    }
}

/// [`analyze`], with a parser panic turned into an error instead of unwinding into the caller.
fn analyze_guarded(
    path: &Path,
    text: &str,
    lines: &LineIndex<'_>,
    helper: bool,
) -> Result<Module, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        analyze(path, text, lines, helper)
    }))
    .unwrap_or_else(|_| Err(Failure::Error(internal_error(path))))
}

fn analyze(
    path: &Path,
    text: &str,
    lines: &LineIndex<'_>,
    helper: bool,
) -> Result<Module, Failure> {
    let allocator = Allocator::with_capacity(text.len() * 16 + 16 * 1024);
    let options = ParseOptions {
        preserve_parens: false,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(&allocator, text, SourceType::mjs())
        .with_options(options)
        .parse();
    let syntax = |offset: u32, message: String| {
        let (line, col) = lines.line_col(offset);
        Failure::Error(SourceError::Syntax {
            path: path.to_path_buf(),
            line,
            col,
            message,
        })
    };
    if parsed.panicked || parsed.diagnostics.has_errors() {
        let (offset, message) = parsed
            .diagnostics
            .errors()
            .next()
            .map(|diagnostic| {
                // the primary label; else the last one ("… cannot be redeclared here")
                let offset = diagnostic
                    .labels
                    .iter()
                    .find(|label| label.primary())
                    .or_else(|| diagnostic.labels.last())
                    .map_or(0, |label| label.offset());
                (offset, diagnostic.message.to_string())
            })
            .unwrap_or((0, "the parser stopped".to_string()));
        return Err(syntax(offset, message));
    }
    let program: &Program<'_> = &parsed.program;
    let top = collect::collect(program).map_err(|err| syntax(err.offset, err.message))?;

    let walk_limit = if helper {
        MAX_WALK_DEPTH
    } else {
        FAST_WALK_DEPTH
    };
    let found = walk::walk(program, text, walk_limit);
    if let Some(offset) = found.too_deep {
        if !helper {
            return Err(Failure::Retry);
        }
        let (line, col) = lines.line_col(offset);
        return Err(Failure::Error(SourceError::NonStatic {
            path: path.to_path_buf(),
            line,
            col,
            construct: format!("nesting deeper than {MAX_WALK_DEPTH} levels"),
            export: None,
        }));
    }
    let mut mutated: HashMap<&str, OxcSpan> = HashMap::new();
    for (name, site) in &found.mutations {
        if matches!(top.bindings.get(name), Some(Binding::Const { .. })) {
            mutated.entry(name).or_insert(*site);
        }
    }

    let depth_limit = if helper {
        MAX_EVAL_DEPTH
    } else {
        FAST_EVAL_DEPTH
    };
    let mut evaluator = Evaluator::new(text, &top.bindings, &mutated, depth_limit, helper);
    let mut exports = Vec::with_capacity(top.exports.len());
    for entry in &top.exports {
        let non_static = |offset: u32, construct: String| {
            let (line, col) = lines.line_col(offset);
            SourceError::NonStatic {
                path: path.to_path_buf(),
                line,
                col,
                construct,
                export: Some(entry.name.clone()),
            }
        };
        let result = match &entry.target {
            ExportTarget::Local { name } => match top.bindings.get(name) {
                Some(Binding::Variable { kind, .. }) => Err(EvalError::At {
                    offset: entry.span.start,
                    construct: format!("exported `{kind}` binding `{name}` (its value can change)"),
                }),
                _ => evaluator.binding_value(name, entry.span),
            },
            ExportTarget::Expression { expr, start } => evaluator.expression_value(expr, *start),
            ExportTarget::Function(span) => Ok(JsVal::Function(*span)),
            ExportTarget::ReExport { source } => Err(EvalError::At {
                offset: entry.span.start,
                construct: format!("re-export from `{source}`"),
            }),
        };
        let value = match result {
            Err(EvalError::Retry) => return Err(Failure::Retry),
            Err(EvalError::At { offset, construct }) => Err(non_static(offset, construct)),
            Ok(JsVal::Function(span)) => Ok(ExportValue::Function {
                span: lines.span(span),
            }),
            Ok(value) => match into_json(value) {
                Ok(json) => Ok(ExportValue::Json(json.unwrap_or(serde_json::Value::Null))),
                Err(ConvertError::ToJson(span)) => Err(non_static(
                    span.start,
                    "object with a `toJSON` method".to_string(),
                )),
            },
        };
        exports.push(Export {
            name: entry.name.clone(),
            span: lines.span(entry.span),
            value,
        });
    }

    let handlers = top
        .exports
        .iter()
        .find(|entry| entry.name == "handlers")
        .map(|entry| {
            let scan = match &entry.target {
                ExportTarget::Local { name } => match top.bindings.get(name).copied() {
                    Some(Binding::Const {
                        init: Some(init), ..
                    }) => Some(handlers::scan_expression(init, &top.bindings)),
                    Some(Binding::Function { func }) => func.body.as_ref().map(|body| {
                        handlers::scan_function_body(func.span, &body.statements, &top.bindings)
                    }),
                    _ => None,
                },
                ExportTarget::Expression { expr, .. } => {
                    Some(handlers::scan_expression(expr, &top.bindings))
                }
                ExportTarget::Function(_) | ExportTarget::ReExport { .. } => None,
            };
            match scan {
                Some(scan) => Handlers {
                    span: lines.span(scan.span),
                    tools: scan.tools,
                    complete: scan.complete,
                },
                None => Handlers {
                    span: lines.span(entry.span),
                    tools: Vec::new(),
                    complete: false,
                },
            }
        });

    Ok(Module {
        path: path.to_path_buf(),
        exports,
        imports: found
            .imports
            .into_iter()
            .map(|(span, kind, source)| ImportStatement {
                source,
                kind,
                span: lines.span(span),
            })
            .collect(),
        handlers,
        fetch_calls: found
            .fetch_calls
            .into_iter()
            .map(|span| lines.span(span))
            .collect(),
    })
}
