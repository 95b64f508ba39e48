//! Server parameters (API keys) for the pretest. Only used when asked (`--with-keys`,
//! `FLOWMCP_GRADING_USE_KEYS`, or `grading.useKeys: true` in `~/.flowmcp/config.json`). Values
//! come from the environment, `./.flowmcp/.env` and `~/.flowmcp/.env` (in that order of
//! precedence); an empty value counts as missing. Values are never written or printed.

use crate::island::home_dir;
use std::collections::HashMap;
use std::path::Path;

/// Whether keys are used: the flag (clap also reads `FLOWMCP_GRADING_USE_KEYS`), else the config.
pub fn use_keys(flag: bool) -> bool {
    flag || home_dir()
        .and_then(|home| std::fs::read_to_string(home.join(".flowmcp/config.json")).ok())
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|config| config.pointer("/grading/useKeys").and_then(|v| v.as_bool()))
        .unwrap_or(false)
}

/// The values of the `required` names that are set, and the names that are missing.
pub fn server_params(required: &[String]) -> (HashMap<String, String>, Vec<String>) {
    let mut files = HashMap::new();
    if let Some(home) = home_dir() {
        files.extend(read_env_file(&home.join(".flowmcp/.env")));
    }
    files.extend(read_env_file(Path::new(".flowmcp/.env")));
    let mut found = HashMap::new();
    let mut missing = Vec::new();
    for name in required {
        let value = std::env::var(name)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .or_else(|| files.get(name).cloned().filter(|v| !v.trim().is_empty()));
        match value {
            Some(value) => {
                found.insert(name.clone(), value);
            }
            None => missing.push(name.clone()),
        }
    }
    (found, missing)
}

/// `KEY=value` lines; `#` comments, `export ` prefixes and surrounding quotes are allowed.
/// Unreadable files count as empty (they are optional).
pub fn read_env_file(path: &Path) -> HashMap<String, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    parse_env(&text)
}

pub fn parse_env(text: &str) -> HashMap<String, String> {
    let mut values = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(value);
        values.insert(key.trim().to_owned(), value.to_owned());
    }
    values
}

/// Replaces every key value in `text` with `***` (for error messages from the HTTP layer).
pub fn redact(text: &str, server: &HashMap<String, String>) -> String {
    let mut out = text.to_owned();
    for value in server.values().filter(|v| v.len() >= 3) {
        out = out.replace(value.as_str(), "***");
    }
    out
}

/// `redact` over every string (and object key) of a stored response: an API that echoes the
/// request back must not put the key into the island.
pub fn redact_value(
    value: serde_json::Value,
    server: &HashMap<String, String>,
) -> serde_json::Value {
    use serde_json::Value;
    if server.is_empty() {
        return value;
    }
    match value {
        Value::String(text) => Value::String(redact(&text, server)),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| redact_value(v, server)).collect())
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (redact(&k, server), redact_value(v, server)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_responses_are_redacted() {
        let server = HashMap::from([("K".to_owned(), "s3cr3t".to_owned())]);
        let echoed = serde_json::json!({"url": "/x?apikey=s3cr3t", "s3cr3t": [1, "a s3cr3t b"]});
        assert_eq!(
            redact_value(echoed, &server).to_string(),
            r#"{"url":"/x?apikey=***","***":[1,"a *** b"]}"#
        );
    }

    #[test]
    fn env_file_forms() {
        let values = parse_env("# c\nA=1\nexport B = \"two\"\nC='3'\nEMPTY=\nnonsense\n");
        assert_eq!(values["A"], "1");
        assert_eq!(values["B"], "two");
        assert_eq!(values["C"], "3");
        assert_eq!(values["EMPTY"], "");
        assert_eq!(values.len(), 4);
    }

    #[test]
    fn redaction() {
        let server = HashMap::from([("K".to_owned(), "s3cr3t".to_owned())]);
        assert_eq!(
            redact("GET /x?apikey=s3cr3t failed", &server),
            "GET /x?apikey=*** failed"
        );
    }
}
