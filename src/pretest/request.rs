//! One tool test as an HTTP request, with flowmcp-core v4 semantics (reference-cli.md §2.2):
//! URL = `root` + `path`; `:param` and `{{param}}` inserts; query parameters; a JSON body of the
//! body parameters; fixed parameter values; `{{KEY}}` server parameters in root, path, headers
//! and values. Nothing here touches the network.

use serde_json::{Map, Value};
use std::collections::HashMap;

/// The marker of a value the user (here: the test) supplies.
pub const USER_PARAM: &str = "{{USER_PARAM}}";

#[derive(Debug, Clone)]
pub struct PreparedRequest {
    pub method: reqwest::Method,
    pub url: reqwest::Url,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
    /// `host:port`, the unit of the per-host limit.
    pub host: String,
}

/// Builds the request of one test. `Err` is the reason it cannot be sent (recorded as not-run);
/// it never contains a server-parameter value.
pub fn prepare(
    main: &Value,
    tool: &Value,
    test: &Map<String, Value>,
    server: &HashMap<String, String>,
) -> Result<PreparedRequest, String> {
    let root = main.get("root").and_then(Value::as_str).unwrap_or("");
    let mut path = tool
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let mut query: Vec<(String, String)> = Vec::new();
    let mut body = Map::new();

    for parameter in tool
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(position) = parameter.get("position") else {
            continue;
        };
        let key = position.get("key").and_then(Value::as_str).unwrap_or("");
        let location = position
            .get("location")
            .and_then(Value::as_str)
            .unwrap_or("query");
        let declared = position.get("value").cloned().unwrap_or(Value::Null);
        let value = if declared.as_str() == Some(USER_PARAM) {
            match test.get(key).cloned().or_else(|| default_of(parameter)) {
                Some(value) => value,
                None => continue, // optional and not given: left out, as the core does
            }
        } else {
            declared
        };
        match location {
            "insert" => {
                let text = scalar_text(&value);
                path = replace_placeholder(&path, key, &text);
            }
            "body" => {
                body.insert(key.to_owned(), interpolate_value(value, server)?);
            }
            _ => {
                let text = interpolate(&scalar_text(&value), server)?;
                query.push((key.to_owned(), text));
            }
        }
    }

    let raw = format!(
        "{}{}",
        interpolate(root, server)?,
        interpolate(&path, server)?
    );
    let mut url = reqwest::Url::parse(&raw)
        .map_err(|err| format!("invalid URL from root and path: {err}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("unsupported URL scheme `{}`", url.scheme()));
    }
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query.iter());
    }
    let host = match (url.host_str(), url.port_or_known_default()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        _ => return Err("the URL has no host".into()),
    };

    let mut headers = Vec::new();
    for source in [main.get("headers"), tool.get("headers")] {
        if let Some(map) = source.and_then(Value::as_object) {
            for (name, value) in map {
                let text = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                headers.push((name.clone(), interpolate(&text, server)?));
            }
        }
    }

    let method_text = tool
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("GET")
        .to_ascii_uppercase();
    let method = reqwest::Method::from_bytes(method_text.as_bytes())
        .map_err(|_| format!("unsupported method `{method_text}`"))?;
    let sends_body = !matches!(method, reqwest::Method::GET | reqwest::Method::HEAD);
    Ok(PreparedRequest {
        method,
        url,
        headers,
        body: (sends_body && !body.is_empty()).then_some(Value::Object(body)),
        host,
    })
}

/// `default(x)` from the parameter's `z.options`, typed by its primitive.
fn default_of(parameter: &Value) -> Option<Value> {
    let options = parameter.pointer("/z/options")?.as_array()?;
    let raw = options.iter().filter_map(Value::as_str).find_map(|o| {
        o.strip_prefix("default(")
            .and_then(|rest| rest.strip_suffix(')'))
    })?;
    let primitive = parameter
        .pointer("/z/primitive")
        .and_then(Value::as_str)
        .unwrap_or("");
    Some(if primitive.starts_with("number") {
        raw.parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .unwrap_or_else(|| Value::String(raw.to_owned()))
    } else if primitive.starts_with("boolean") {
        Value::Bool(raw == "true")
    } else {
        Value::String(raw.to_owned())
    })
}

/// A parameter value as it goes into a URL: strings as they are, numbers in JS form, arrays
/// joined with commas, objects as JSON.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(scalar_text).collect::<Vec<_>>().join(","),
        Value::Null => String::new(),
        other => crate::hash::js_stringify(other),
    }
}

/// Replaces `:key` (a whole path segment name) and `{{key}}` in a path, percent-encoding the value.
fn replace_placeholder(path: &str, key: &str, value: &str) -> String {
    let encoded: String = percent_encode_segment(value);
    let path = path.replace(&format!("{{{{{key}}}}}"), &encoded);
    let marker = format!(":{key}");
    let mut out = String::with_capacity(path.len());
    let mut rest = path.as_str();
    while let Some(at) = rest.find(&marker) {
        let after = &rest[at + marker.len()..];
        let boundary = after
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        out.push_str(&rest[..at]);
        if boundary {
            out.push_str(&encoded);
        } else {
            out.push_str(&marker);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

fn percent_encode_segment(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Replaces every `{{KEY}}` with its server-parameter value. A placeholder without a value is
/// an error naming the key (never a value).
pub fn interpolate(text: &str, server: &HashMap<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + 2 + len];
        let name = name.strip_prefix("SERVER_PARAM:").unwrap_or(name);
        out.push_str(&rest[..start]);
        match server.get(name) {
            Some(value) => out.push_str(value),
            None => {
                return Err(format!(
                    "unresolved placeholder {{{{{name}}}}}: server parameter `{name}` is not set"
                ));
            }
        }
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn interpolate_value(value: Value, server: &HashMap<String, String>) -> Result<Value, String> {
    Ok(match value {
        Value::String(s) => Value::String(interpolate(&s, server)?),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test_map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn builds_url_query_inserts_and_headers() {
        let main = json!({"root": "https://api.example/v1", "headers": {"X-Key": "{{K}}"}});
        let tool = json!({
            "method": "GET",
            "path": "/stations/:stationId/latest/{{day}}",
            "parameters": [
                {"position": {"key": "stationId", "value": "{{USER_PARAM}}", "location": "insert"}},
                {"position": {"key": "day", "value": "{{USER_PARAM}}", "location": "insert"}},
                {"position": {"key": "units", "value": "{{USER_PARAM}}", "location": "query"},
                 "z": {"primitive": "enum(metric,imperial)", "options": ["optional()", "default(metric)"]}},
                {"position": {"key": "limit", "value": "{{USER_PARAM}}", "location": "query"},
                 "z": {"primitive": "number()", "options": ["optional()"]}},
                {"position": {"key": "format", "value": "full", "location": "query"}},
                {"position": {"key": "apikey", "value": "{{K}}", "location": "query"}}
            ]
        });
        let server = HashMap::from([("K".to_owned(), "s3cr3t".to_owned())]);
        let request = prepare(
            &main,
            &tool,
            &test_map(json!({"stationId": "DE 1", "day": 3})),
            &server,
        )
        .unwrap();
        assert_eq!(
            request.url.as_str(),
            "https://api.example/v1/stations/DE%201/latest/3?units=metric&format=full&apikey=s3cr3t"
        );
        assert_eq!(
            request.headers,
            vec![("X-Key".to_owned(), "s3cr3t".to_owned())]
        );
        assert_eq!(request.host, "api.example:443");
        assert!(request.body.is_none());
    }

    #[test]
    fn post_sends_body_parameters() {
        let main = json!({"root": "http://127.0.0.1:9"});
        let tool = json!({"method": "POST", "path": "/q", "parameters": [
            {"position": {"key": "sql", "value": "{{USER_PARAM}}", "location": "body"}},
            {"position": {"key": "mode", "value": "fast", "location": "body"}}
        ]});
        let request = prepare(
            &main,
            &tool,
            &test_map(json!({"sql": "select 1"})),
            &HashMap::new(),
        )
        .unwrap();
        assert_eq!(
            request.body,
            Some(json!({"sql": "select 1", "mode": "fast"}))
        );
        assert_eq!(request.method, reqwest::Method::POST);
    }

    #[test]
    fn unresolved_keys_name_the_key_never_a_value() {
        let main = json!({"root": "https://{{ACCOUNT}}.example/v2"});
        let tool = json!({"method": "GET", "path": "/x"});
        let err = prepare(&main, &tool, &Map::new(), &HashMap::new()).unwrap_err();
        assert!(err.contains("`ACCOUNT`"), "{err}");
        let server = HashMap::from([("ACCOUNT".to_owned(), "acme".to_owned())]);
        let ok = prepare(&main, &tool, &Map::new(), &server).unwrap();
        assert_eq!(ok.url.as_str(), "https://acme.example/v2/x");
    }

    #[test]
    fn colon_placeholders_respect_name_boundaries() {
        assert_eq!(replace_placeholder("/a/:id/:idx", "id", "7"), "/a/7/:idx");
    }
}
