//! One message style for every error the tool reports: a stable code, what went wrong, the file and
//! the field it is about, and a `fix:` hint.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Implemented by every module's error enum so that the CLI can render any of them the same way.
pub trait Coded: std::error::Error {
    /// The stable error code, e.g. `GRD-005`.
    fn code(&self) -> &'static str;
    /// One line telling the user how to fix it.
    fn fix(&self) -> String;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A rendered finding: an error or a warning about one file and, where it applies, one field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// JSON pointer of the field (`""` is the document root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    pub fix: String,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, fix: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: None,
            pointer: None,
            fix: fix.into(),
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, fix: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, fix)
        }
    }

    pub fn from_coded(err: &dyn Coded) -> Self {
        Diagnostic::error(err.code(), err.to_string(), err.fix())
    }

    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    pub fn in_file(mut self, file: &Path) -> Self {
        self.file = Some(file.to_path_buf());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{label}[{}]: ", self.code)?;
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if let Some(pointer) = &self.pointer {
            let shown = if pointer.is_empty() {
                "(root)"
            } else {
                pointer
            };
            write!(f, "{shown}: ")?;
        }
        write!(f, "{}", self.message)?;
        if !self.fix.is_empty() {
            write!(f, "\n  fix: {}", self.fix)?;
        }
        Ok(())
    }
}

/// Appends one JSON-pointer token, escaped per RFC 6901.
pub fn pointer_push(base: &str, token: impl fmt::Display) -> String {
    let token = token.to_string().replace('~', "~0").replace('/', "~1");
    format!("{base}/{token}")
}
