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

/// A handoff is valid against the prompts schema, lists only files that exist, and its CLI
/// answers have the scores.json answer shape.
pub fn check_handoff(prompts: &Value) {
    let validator = flowmcp_grading::schemas::prompts();
    let errors: Vec<String> = validator
        .iter_errors(prompts)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "prompts.json is not valid: {errors:#?}");
    for area in prompts["areas"].as_array().unwrap() {
        for instance in area["instances"].as_array().unwrap() {
            for file in instance["files"].as_array().unwrap() {
                let path = file["path"].as_str().unwrap();
                assert!(Path::new(path).is_file(), "{path} listed but missing");
            }
            for answer in instance["deterministicAnswers"].as_array().unwrap() {
                let errors = flowmcp_grading::schemas::scores().iter_errors(&serde_json::json!({
                    "taskId": "x--00000000", "llmModel": "m",
                    "areas": [{"area": area["area"], "results": [{"instanceId": "i", "answers": [answer]}]}]
                })).count();
                assert_eq!(
                    errors, 0,
                    "deterministic answer has the scores.json answer shape: {answer}"
                );
            }
        }
    }
    let emitted: Vec<flowmcp_grading::model::Area> = prompts["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["area"].as_str().unwrap().parse().unwrap())
        .collect();
    let ns = prompts["target"].as_str().unwrap();
    assert_eq!(
        prompts["taskId"],
        flowmcp_grading::hash::task_id::generate(ns, &emitted)
            .unwrap()
            .as_str()
    );
}
