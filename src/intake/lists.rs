//! Shared-list references (`main.sharedLists[]`): recorded, and snapshotted into
//! `shared-lists/<ref>/` when the list module is found in a `_lists/` or `_shared/` folder up to
//! ten levels above the provider folder. A missing list is a warning.

use crate::diagnostic::Diagnostic;
use crate::hash::hash8;
use crate::island::names::is_slug;
use crate::source::{self, ExportValue};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

const MAX_LEVELS_UP: usize = 10;

/// A shared list a schema refers to.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListRef {
    #[serde(rename = "ref")]
    pub name: String,
    pub version: Option<String>,
    pub schema: String,
    /// The list module found for it, if any.
    pub source: Option<PathBuf>,
    #[serde(skip)]
    pub value: Option<Value>,
    pub hash: Option<String>,
}

/// The list references of one schema, each looked up and read statically.
pub fn resolve(
    main: &Value,
    slug: &str,
    schema_file: &Path,
    folder: &Path,
) -> (Vec<ListRef>, Vec<Diagnostic>) {
    let mut refs = Vec::new();
    let mut warnings = Vec::new();
    let Some(items) = main.get("sharedLists").and_then(Value::as_array) else {
        return (refs, warnings);
    };
    for (index, item) in items.iter().enumerate() {
        let Some(name) = item.get("ref").and_then(Value::as_str) else {
            continue;
        };
        let pointer = format!("/sharedLists/{index}/ref");
        let mut list = ListRef {
            name: name.to_owned(),
            version: item
                .get("version")
                .and_then(Value::as_str)
                .map(str::to_owned),
            schema: slug.to_owned(),
            source: None,
            value: None,
            hash: None,
        };
        if !is_slug(name) {
            warnings.push(
                Diagnostic::warning(
                    "IMP-WARN-009",
                    format!(
                        "shared list reference `{name}` is not a valid list name; not looked up"
                    ),
                    "use the list's name, e.g. `evmChains`",
                )
                .in_file(schema_file)
                .at(pointer),
            );
            refs.push(list);
            continue;
        }
        match find_list(folder, name) {
            Some(path) => match read_list(&path) {
                Ok(value) => {
                    list.hash = Some(hash8(&value));
                    list.value = Some(value);
                    list.source = Some(path);
                }
                Err(message) => warnings.push(
                    Diagnostic::warning(
                        "IMP-WARN-009",
                        format!("shared list `{name}` found at {} but not readable: {message}", path.display()),
                        "make the list module export a static `list` object",
                    )
                    .in_file(schema_file)
                    .at(pointer),
                ),
            },
            None => warnings.push(
                Diagnostic::warning(
                    "IMP-WARN-009",
                    format!(
                        "shared list `{name}` not found (looked for _lists/{name}.mjs and _shared/{name}.mjs up to {MAX_LEVELS_UP} folders above the provider folder)"
                    ),
                    "add the list module to a _lists/ folder above the provider folder, or drop the reference",
                )
                .in_file(schema_file)
                .at(pointer),
            ),
        }
        refs.push(list);
    }
    (refs, warnings)
}

fn find_list(folder: &Path, name: &str) -> Option<PathBuf> {
    let start = std::fs::canonicalize(folder).ok()?;
    start.ancestors().take(MAX_LEVELS_UP + 1).find_map(|dir| {
        ["_lists", "_shared"]
            .iter()
            .map(|sub| dir.join(sub).join(format!("{name}.mjs")))
            .find(|candidate| candidate.is_file())
    })
}

fn read_list(path: &Path) -> Result<Value, String> {
    let module = source::read_module(path).map_err(|err| err.to_string())?;
    let export = module
        .export("list")
        .or_else(|| module.exports.first())
        .ok_or_else(|| "the module exports nothing".to_owned())?;
    match &export.value {
        Ok(ExportValue::Json(value)) => Ok(value.clone()),
        Ok(ExportValue::Function { .. }) => Err("the list export is a function".into()),
        Err(err) => Err(err.to_string()),
    }
}
