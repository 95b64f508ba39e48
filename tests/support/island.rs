//! Helpers for tests that drive whole runs on an island: a byte-for-byte picture of the island
//! and a scripted harness that answers every asked question.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every file under `root` (the lock file aside) with its bytes.
pub fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().unwrap() != ".lock" {
                files.insert(
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    fs::read(&path).unwrap(),
                );
            }
        }
    }
    files
}

/// A scripted harness: answers every asked question of `prompts`.
/// `scale` for 1–5 questions, `pass` for boolean ones.
pub fn scripted(prompts: &Value, scale: f64) -> Value {
    let catalogue: BTreeMap<String, String> = flowmcp_grading::prompts::catalogue::all()
        .iter()
        .map(|q| (q.id.clone(), format!("{:?}", q.score_type)))
        .collect();
    let areas: Vec<Value> = prompts["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|area| {
            let results: Vec<Value> = area["instances"]
                .as_array()
                .unwrap()
                .iter()
                .map(|instance| {
                    let answers: Vec<Value> = instance["questionIds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|q| {
                            let id = q.as_str().unwrap();
                            let score = if catalogue[id] == "Boolean" {
                                json!("pass")
                            } else {
                                json!(scale)
                            };
                            json!({"questionId": id, "score": score, "reasoning": "scripted"})
                        })
                        .collect();
                    json!({"instanceId": instance["instanceId"], "answers": answers})
                })
                .collect();
            json!({"area": area["area"], "results": results})
        })
        .collect();
    json!({"taskId": prompts["taskId"], "llmModel": "claude-opus-4", "areas": areas})
}

/// Writes a green provider `<ns>` served by the test server at `base`: three tools with three
/// working tests each (`/ok`), no About. Returns its folder.
pub fn green_provider(root: &Path, ns: &str, base: &str) -> PathBuf {
    let folder = root.join(ns);
    fs::create_dir_all(&folder).unwrap();
    let tool = |name: &str| {
        format!(
            "{name}: {{ method: 'GET', path: '/ok', description: 'Lists items.', parameters: [], tests: [{{ _description: 'a' }}, {{ _description: 'b' }}, {{ _description: 'c' }}], output: {{ mimeType: 'application/json', schema: {{ type: 'object', properties: {{ items: {{ type: 'array' }} }} }} }} }},\n"
        )
    };
    fs::write(
        folder.join(format!("{ns}.mjs")),
        format!(
            "export const main = {{ namespace: '{ns}', name: 'API {ns}', description: 'A loopback API.', version: '4.0.0', docs: ['{base}/ok'], tags: [], root: '{base}', requiredServerParams: [], headers: {{}}, tools: {{ {}{}{} }} }}\n",
            tool("listA"),
            tool("listB"),
            tool("listC")
        ),
    )
    .unwrap();
    folder
}
