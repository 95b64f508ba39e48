//! The About text of a schema (spec ch. 11): declared as `main.resources.about` (or, as the node
//! implementation also reads it, an array item with `kind`/`name` `about`), its markdown either
//! inline (`content`/`text`) or a file `resources/<name>` beside the schema.

use crate::diagnostic::Diagnostic;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// About files larger than this are not read.
pub const MAX_ABOUT_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct AboutText {
    pub text: String,
    /// `inline` or the file it was read from.
    pub origin: Option<PathBuf>,
}

/// Finds the About text. `Ok(None)`: no About declared (not an error — spec ch. 11 forbids
/// rejecting a schema over the About convention). A declared but unreadable About is a warning.
pub fn find_about(
    main: &Value,
    schema_file: &Path,
    folder: &Path,
) -> Result<Option<AboutText>, Diagnostic> {
    let Some(declared) = declaration(main) else {
        return Ok(None);
    };
    if let Some(text) = declared.as_str().filter(|t| !t.trim().is_empty()) {
        return Ok(Some(AboutText {
            text: text.to_owned(),
            origin: None,
        }));
    }
    for key in ["content", "text"] {
        if let Some(text) = declared
            .get(key)
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
        {
            return Ok(Some(AboutText {
                text: text.to_owned(),
                origin: None,
            }));
        }
    }
    let warn = |message: String, fix: &str| {
        Diagnostic::warning("IMP-WARN-013", message, fix)
            .in_file(schema_file)
            .at("/resources/about")
    };
    let Some(name) = declared.get("name").and_then(Value::as_str) else {
        return Err(warn(
            "About resource declared without inline content and without a `name`".into(),
            "add `name: '<namespace>-about.md'` and put the file in resources/ beside the schema",
        ));
    };
    if name.is_empty() || name.contains(['/', '\\', '\0']) || name == "." || name == ".." {
        return Err(warn(
            format!("About resource name `{name}` is not a plain file name; not read"),
            "use a plain file name such as `<namespace>-about.md`",
        ));
    }
    let path = folder.join("resources").join(name);
    let inside = std::fs::canonicalize(&path)
        .ok()
        .zip(std::fs::canonicalize(folder).ok())
        .is_some_and(|(file, root)| file.starts_with(root));
    if !inside {
        return Err(warn(
            format!(
                "About file {} not found in the provider folder",
                path.display()
            ),
            "put the markdown file in resources/ beside the schema, or inline it as `content`",
        ));
    }
    let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file());
    match meta {
        Some(meta) if meta.len() > MAX_ABOUT_BYTES => Err(warn(
            format!(
                "About file {} is larger than {} bytes; not read",
                path.display(),
                MAX_ABOUT_BYTES
            ),
            "keep the About short: capability summary, limitations, tools, personas, use cases",
        )),
        Some(_) => match std::fs::read_to_string(&path) {
            Ok(text) if !text.trim().is_empty() => Ok(Some(AboutText {
                text,
                origin: Some(path),
            })),
            Ok(_) => Err(warn(
                format!("About file {} is empty", path.display()),
                "write the About text (spec ch. 11 lists what it must hold)",
            )),
            Err(err) => Err(warn(
                format!(
                    "About file {} is not readable UTF-8 text: {err}",
                    path.display()
                ),
                "save the About file as UTF-8 markdown",
            )),
        },
        None => Err(warn(
            format!("About file {} is not a regular file", path.display()),
            "put the markdown file in resources/ beside the schema",
        )),
    }
}

fn declaration(main: &Value) -> Option<&Value> {
    match main.get("resources")? {
        Value::Object(resources) => resources.get("about"),
        Value::Array(items) => items.iter().find(|item| {
            item.get("kind").and_then(Value::as_str) == Some("about")
                || item.get("name").and_then(Value::as_str) == Some("about")
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_forms() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.mjs");
        for main in [
            json!({"resources": {"about": "# Hi"}}),
            json!({"resources": {"about": {"content": "# Hi"}}}),
            json!({"resources": [{"kind": "about", "text": "# Hi"}]}),
        ] {
            let about = find_about(&main, &f, dir.path()).unwrap().unwrap();
            assert_eq!(about.text, "# Hi");
        }
        assert_eq!(find_about(&json!({}), &f, dir.path()).unwrap(), None);
        assert_eq!(
            find_about(&json!({"resources": {"db": {}}}), &f, dir.path()).unwrap(),
            None
        );
    }

    #[test]
    fn file_form_and_its_warnings() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.mjs");
        std::fs::create_dir(dir.path().join("resources")).unwrap();
        std::fs::write(dir.path().join("resources/ns-about.md"), "# About").unwrap();
        let main = json!({"resources": {"about": {"source": "markdown", "name": "ns-about.md"}}});
        let about = find_about(&main, &f, dir.path()).unwrap().unwrap();
        assert_eq!(about.text, "# About");
        for name in ["../../etc/passwd", "missing.md", ".."] {
            let main = json!({"resources": {"about": {"name": name}}});
            let warning = find_about(&main, &f, dir.path()).unwrap_err();
            assert_eq!(warning.code, "IMP-WARN-013", "{name}");
        }
    }
}
