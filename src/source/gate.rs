//! The structural gate for a FlowMCP v4 schema's `main`: every missing field and every field of
//! the wrong type, each as an `IMP-002` diagnostic with the JSON pointer of the field. Legacy
//! `routes` in place of `tools` is accepted with the warning `IMP-WARN-002`.

use crate::diagnostic::{Diagnostic, pointer_push};
use serde_json::{Map, Value};

const CODE: &str = "IMP-002";
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// All structural problems of a schema's `main` (empty when it passes).
pub fn check_schema(main: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(root) = main.as_object() else {
        out.push(
            Diagnostic::error(
                CODE,
                format!("the schema is {}, not an object", kind_of(main)),
                "export the schema as an object literal: `export const main = { namespace, … }`",
            )
            .at(""),
        );
        return out;
    };

    match root.get("namespace") {
        Some(Value::String(ns)) if is_namespace(ns) => {}
        Some(Value::String(ns)) => out.push(
            Diagnostic::error(
                CODE,
                format!("`namespace` `{ns}` does not match ^[a-z][a-z0-9-]*$"),
                "use lowercase letters, digits and hyphens, starting with a letter, e.g. `coingecko`",
            )
            .at("/namespace"),
        ),
        other => out.push(wrong_type("namespace", other, "a string", "/namespace")),
    }
    non_empty_string(&mut out, root, "name", "/name");
    non_empty_string(&mut out, root, "description", "/description");
    match root.get("version") {
        Some(Value::String(version)) if is_v4_version(version) => {}
        Some(Value::String(version)) => out.push(
            Diagnostic::error(
                CODE,
                format!("`version` `{version}` is not a FlowMCP v4 version (4.x.y)"),
                "set `version: '4.0.0'` and migrate the schema to FlowMCP v4",
            )
            .at("/version"),
        ),
        other => out.push(wrong_type("version", other, "a string", "/version")),
    }
    match root.get("root") {
        Some(Value::String(_)) => {}
        other => out.push(wrong_type(
            "root",
            other,
            "a string (may be empty)",
            "/root",
        )),
    }

    match (root.get("tools"), root.get("routes")) {
        (Some(Value::Object(tools)), _) => {
            if tools.is_empty() {
                out.push(
                    Diagnostic::error(
                        CODE,
                        "`tools` is empty",
                        "declare at least one tool: `tools: { getThing: { method, path, … } }`",
                    )
                    .at("/tools"),
                );
            }
            check_tools(&mut out, tools, "/tools");
        }
        (None, Some(Value::Object(routes))) => {
            out.push(
                Diagnostic::warning(
                    "IMP-WARN-002",
                    "legacy `routes`; FlowMCP v4 calls them `tools`",
                    "rename `routes` to `tools`",
                )
                .at("/routes"),
            );
            if routes.is_empty() {
                out.push(
                    Diagnostic::error(
                        CODE,
                        "`routes` is empty",
                        "declare at least one tool under `tools`",
                    )
                    .at("/routes"),
                );
            }
            check_tools(&mut out, routes, "/routes");
        }
        (tools, _) => out.push(wrong_type("tools", tools, "an object of tools", "/tools")),
    }

    array_of_strings(&mut out, root, "docs");
    array_of_strings(&mut out, root, "tags");
    array_of_strings(&mut out, root, "requiredServerParams");
    if let Some(headers) = root.get("headers") {
        match headers {
            Value::Object(map) => {
                for (key, value) in map {
                    if !value.is_string() {
                        let pointer = pointer_push("/headers", key);
                        out.push(wrong_type(
                            &format!("headers.{key}"),
                            Some(value),
                            "a string",
                            &pointer,
                        ));
                    }
                }
            }
            other => out.push(wrong_type(
                "headers",
                Some(other),
                "an object of strings",
                "/headers",
            )),
        }
    }
    if let Some(lists) = root.get("sharedLists") {
        match lists {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let pointer = pointer_push("/sharedLists", i);
                    match item.as_object() {
                        Some(list) => {
                            if !list.get("ref").is_some_and(Value::is_string) {
                                let ref_pointer = pointer_push(&pointer, "ref");
                                out.push(wrong_type(
                                    &format!("sharedLists[{i}].ref"),
                                    list.get("ref"),
                                    "a string",
                                    &ref_pointer,
                                ));
                            }
                        }
                        None => out.push(wrong_type(
                            &format!("sharedLists[{i}]"),
                            Some(item),
                            "an object `{ ref, version }`",
                            &pointer,
                        )),
                    }
                }
            }
            other => out.push(wrong_type(
                "sharedLists",
                Some(other),
                "an array of `{ ref, version }` objects",
                "/sharedLists",
            )),
        }
    }
    if let Some(resources) = root.get("resources")
        && !resources.is_object()
        && !resources.is_array()
    {
        out.push(wrong_type(
            "resources",
            Some(resources),
            "an object or an array",
            "/resources",
        ));
    }
    if let Some(skills) = root.get("skills")
        && !skills.is_array()
    {
        out.push(wrong_type("skills", Some(skills), "an array", "/skills"));
    }
    out
}

fn check_tools(out: &mut Vec<Diagnostic>, tools: &Map<String, Value>, base: &str) {
    for (name, tool) in tools {
        let pointer = pointer_push(base, name);
        let Some(tool) = tool.as_object() else {
            out.push(wrong_type(
                &format!("tool `{name}`"),
                Some(tool),
                "an object",
                &pointer,
            ));
            continue;
        };
        let field = |key: &str| pointer_push(&pointer, key);
        match tool.get("method") {
            Some(Value::String(method)) if METHODS.contains(&method.as_str()) => {}
            Some(Value::String(method)) => out.push(
                Diagnostic::error(
                    CODE,
                    format!("tool `{name}`: `method` `{method}` is not one of GET, POST, PUT, PATCH, DELETE"),
                    "use an upper-case HTTP method, e.g. `method: 'GET'`",
                )
                .at(field("method")),
            ),
            other => out.push(wrong_type(
                &format!("tool `{name}`: method"),
                other,
                "one of GET, POST, PUT, PATCH, DELETE",
                &field("method"),
            )),
        }
        if !tool.get("path").is_some_and(Value::is_string) {
            out.push(wrong_type(
                &format!("tool `{name}`: path"),
                tool.get("path"),
                "a string",
                &field("path"),
            ));
        }
        match tool.get("description") {
            Some(Value::String(text)) if !text.trim().is_empty() => {}
            Some(Value::String(_)) => out.push(
                Diagnostic::error(
                    CODE,
                    format!("tool `{name}`: `description` is empty"),
                    "describe what the tool returns and when to use it",
                )
                .at(field("description")),
            ),
            other => out.push(wrong_type(
                &format!("tool `{name}`: description"),
                other,
                "a non-empty string",
                &field("description"),
            )),
        }
        for key in ["parameters", "tests"] {
            if !tool.get(key).is_some_and(Value::is_array) {
                out.push(wrong_type(
                    &format!("tool `{name}`: {key}"),
                    tool.get(key),
                    "an array",
                    &field(key),
                ));
            }
        }
    }
}

fn non_empty_string(
    out: &mut Vec<Diagnostic>,
    root: &Map<String, Value>,
    key: &str,
    pointer: &str,
) {
    match root.get(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => {}
        Some(Value::String(_)) => out.push(
            Diagnostic::error(
                CODE,
                format!("`{key}` is empty"),
                format!("give the schema a `{key}`"),
            )
            .at(pointer),
        ),
        other => out.push(wrong_type(key, other, "a non-empty string", pointer)),
    }
}

fn array_of_strings(out: &mut Vec<Diagnostic>, root: &Map<String, Value>, key: &str) {
    let pointer = pointer_push("", key);
    match root.get(key) {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    out.push(wrong_type(
                        &format!("{key}[{i}]"),
                        Some(item),
                        "a string",
                        &pointer_push(&pointer, i),
                    ));
                }
            }
        }
        Some(other) => out.push(wrong_type(
            key,
            Some(other),
            "an array of strings",
            &pointer,
        )),
    }
}

/// "missing `x`" or "`x` must be …, not …".
fn wrong_type(what: &str, found: Option<&Value>, expected: &str, pointer: &str) -> Diagnostic {
    let (message, fix) = match found {
        None => (
            format!("missing `{what}` ({expected})"),
            format!("add `{what}`: {expected}"),
        ),
        Some(value) => (
            format!("`{what}` must be {expected}, not {}", kind_of(value)),
            format!("make `{what}` {expected}"),
        ),
    };
    Diagnostic::error(CODE, message, fix).at(pointer)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `^[a-z][a-z0-9-]*$`
pub fn is_namespace(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// `^(flowmcp/)?4\.\d+\.\d+$`
fn is_v4_version(version: &str) -> bool {
    let rest = version.strip_prefix("flowmcp/").unwrap_or(version);
    let Some(rest) = rest.strip_prefix("4.") else {
        return false;
    };
    let mut parts = rest.split('.');
    let digits = |part: Option<&str>| {
        part.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}
