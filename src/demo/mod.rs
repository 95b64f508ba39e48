//! What `flowmcp-grading demo` needs besides the real commands: the shipped demo provider, the
//! in-process API it is graded against (`api.rs`), and a scripted stand-in for the harness that
//! answers `prompts.json` from the shipped answers file.

pub mod api;

use serde_json::{Value, json};
use std::path::Path;

/// The demo provider folder's files (relative path, bytes), shipped in `fixtures/demo/demoapi/`.
pub const PROVIDER_FILES: [(&str, &str); 2] = [
    (
        "weather.mjs",
        include_str!("../../fixtures/demo/demoapi/weather.mjs"),
    ),
    (
        "resources/demoapi-about.md",
        include_str!("../../fixtures/demo/demoapi/resources/demoapi-about.md"),
    ),
];

/// The scripted harness's answers by question id (`fixtures/demo/answers.json`).
pub const ANSWERS: &str = include_str!("../../fixtures/demo/answers.json");

/// The host name the demo provider's `root` uses; `--resolve` points it at the in-process API.
pub const HOST: &str = "demoapi.localhost";

/// Writes the demo provider into `dir/demoapi/` and returns that folder.
pub fn write_provider(dir: &Path) -> std::io::Result<std::path::PathBuf> {
    let folder = dir.join("demoapi");
    for (rel, text) in PROVIDER_FILES {
        let path = folder.join(rel);
        std::fs::create_dir_all(path.parent().unwrap_or(&folder))?;
        std::fs::write(path, text)?;
    }
    Ok(folder)
}

/// The scripted harness: one result per emitted instance, answering every asked question from
/// `answers` (by question id). A question the file does not cover is an error naming it.
pub fn scripted_scores(prompts: &Value, answers: &Value) -> Result<Value, String> {
    let mut areas = Vec::new();
    for area in prompts["areas"].as_array().into_iter().flatten() {
        let mut results = Vec::new();
        for instance in area["instances"].as_array().into_iter().flatten() {
            let mut list = Vec::new();
            for id in instance["questionIds"].as_array().into_iter().flatten() {
                let id = id.as_str().unwrap_or_default();
                let answer = answers["answers"]
                    .get(id)
                    .ok_or_else(|| format!("the demo answers file has no answer for {id}"))?;
                let mut answer = answer.clone();
                answer["questionId"] = json!(id);
                list.push(answer);
            }
            results.push(json!({"instanceId": instance["instanceId"], "answers": list}));
        }
        areas.push(json!({"area": area["area"], "results": results}));
    }
    Ok(json!({
        "taskId": prompts["taskId"],
        "llmModel": answers["llmModel"],
        "areas": areas,
    }))
}
