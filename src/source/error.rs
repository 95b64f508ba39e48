//! Errors of the module reader. Every variant names the file and, where it applies, the line and
//! column (1-based, column counted in characters).
//!
//! Codes:
//! - `SRC-001` the module file cannot be read (missing, a directory, an I/O error).
//! - `SRC-002` the module file is larger than [`super::MAX_MODULE_BYTES`]; it is not read.
//! - `SRC-003` the module file is not UTF-8 (line:col of the first bad byte).
//! - `SRC-004` JavaScript syntax error (the parser's message, line:col), including duplicate
//!   declarations or exports and exports of undeclared names.
//! - `SRC-005` a construct that cannot be read without executing code (named, line:col), e.g. a
//!   call, a `let` reference, an imported binding, a template with expressions, nesting that is
//!   too deep.
//! - `SRC-006` the module exports neither `main` nor `schema`.
//! - `SRC-007` `main` (or `schema`) is not a plain object.

use crate::diagnostic::Coded;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// `SRC-001`: missing, a directory, or an I/O error.
    #[error("{}: cannot read: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    /// `SRC-002`: larger than `MAX_MODULE_BYTES`; the content was not read.
    #[error(
        "{}: file is {size} bytes, more than the {limit}-byte limit for a schema module (not read)",
        .path.display()
    )]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// `SRC-003`: the first byte that is not part of valid UTF-8.
    #[error("{}:{line}:{col}: not UTF-8: invalid byte 0x{byte:02x}", .path.display())]
    NotUtf8 {
        path: PathBuf,
        line: u32,
        col: u32,
        byte: u8,
    },
    /// `SRC-004`: JavaScript syntax error.
    #[error("{}:{line}:{col}: syntax error: {message}", .path.display())]
    Syntax {
        path: PathBuf,
        line: u32,
        col: u32,
        message: String,
    },
    /// `SRC-005`: a construct that cannot be read without executing code. `export` is the export
    /// whose value needed it (`None` when the whole module is refused, e.g. nesting too deep).
    #[error(
        "{}:{line}:{col}: non-static construct {construct}{}",
        .path.display(),
        .export.as_ref().map(|name| format!(" in export `{name}`")).unwrap_or_default()
    )]
    NonStatic {
        path: PathBuf,
        line: u32,
        col: u32,
        construct: String,
        export: Option<String>,
    },
    /// `SRC-006`: neither `main` nor `schema` is exported.
    #[error("{}: no `main` or `schema` export{}", .path.display(), describe_exports(.exports))]
    NoSchemaExport { path: PathBuf, exports: Vec<String> },
    /// `SRC-007`: `main` (or `schema`) is not a plain object.
    #[error("{}:{line}:{col}: export `{export}` is {found}, not a plain object", .path.display())]
    NotAnObject {
        path: PathBuf,
        line: u32,
        col: u32,
        export: String,
        found: String,
    },
}

fn describe_exports(exports: &[String]) -> String {
    if exports.is_empty() {
        " (the module exports nothing)".to_string()
    } else {
        let names: Vec<String> = exports.iter().map(|name| format!("`{name}`")).collect();
        format!(" (it exports {})", names.join(", "))
    }
}

impl SourceError {
    /// The module file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            SourceError::Unreadable { path, .. }
            | SourceError::TooLarge { path, .. }
            | SourceError::NotUtf8 { path, .. }
            | SourceError::Syntax { path, .. }
            | SourceError::NonStatic { path, .. }
            | SourceError::NoSchemaExport { path, .. }
            | SourceError::NotAnObject { path, .. } => path,
        }
    }

    /// 1-based line and column, where the error has a position.
    pub fn position(&self) -> Option<(u32, u32)> {
        match self {
            SourceError::NotUtf8 { line, col, .. }
            | SourceError::Syntax { line, col, .. }
            | SourceError::NonStatic { line, col, .. }
            | SourceError::NotAnObject { line, col, .. } => Some((*line, *col)),
            SourceError::Unreadable { .. }
            | SourceError::TooLarge { .. }
            | SourceError::NoSchemaExport { .. } => None,
        }
    }
}

impl Coded for SourceError {
    fn code(&self) -> &'static str {
        match self {
            SourceError::Unreadable { .. } => "SRC-001",
            SourceError::TooLarge { .. } => "SRC-002",
            SourceError::NotUtf8 { .. } => "SRC-003",
            SourceError::Syntax { .. } => "SRC-004",
            SourceError::NonStatic { .. } => "SRC-005",
            SourceError::NoSchemaExport { .. } => "SRC-006",
            SourceError::NotAnObject { .. } => "SRC-007",
        }
    }

    fn fix(&self) -> String {
        match self {
            SourceError::Unreadable { .. } => {
                "check that the path names a readable `.mjs` file".into()
            }
            SourceError::TooLarge { .. } => {
                "a schema module is a few KiB; check that this is the right file".into()
            }
            SourceError::NotUtf8 { .. } => "save the module as UTF-8".into(),
            SourceError::Syntax { .. } => {
                "fix the JavaScript at that position; the file must parse as an ES module".into()
            }
            SourceError::NonStatic { .. } => {
                "write the value as literals, top-level `const` references, spreads and \
                 `JSON.stringify(…)` only; schema data must be readable without running code"
                    .into()
            }
            SourceError::NoSchemaExport { .. } => {
                "export the schema as `export const main = { namespace, name, … }`".into()
            }
            SourceError::NotAnObject { .. } => {
                "make `main` an object literal: `export const main = { namespace, name, … }`".into()
            }
        }
    }
}
