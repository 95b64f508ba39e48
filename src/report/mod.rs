//! `report`: one self-contained HTML file (inline CSS and SVG, one small inline script, no external
//! assets) showing a namespace or a selection as graded: the rollup, a tree of nodes with status
//! colours, grades, reasons and blockers, per graded node its answers with scores, reasoning and
//! evidence, the pretest table, and a chart of the grade distribution.

use crate::prompts::catalogue;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the report shows.
pub struct ReportInput {
    /// `namespace` or `selection`.
    pub kind: &'static str,
    pub id: String,
    /// The rollup (`index.json` as recomputed now).
    pub index: Value,
    /// The folder `ref` values in the index are relative to.
    pub base: PathBuf,
    /// Each schema's pretest `summary.json` with its per-test records (namespace only).
    pub pretests: Vec<(String, Value, Vec<Value>)>,
    pub generated_at: String,
}

/// Escapes text for HTML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

const STYLE: &str = r#"
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:18px 28px}
header h1{margin:0 0 4px;font-size:20px}
header p{margin:0;color:#c7ccd6}
main{padding:20px 28px;max-width:1200px}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:14px 18px;margin-bottom:18px}
h2{font-size:16px;margin:0 0 10px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:#8a93a3}
.status-stable,.status-operational{background:#1f8a4c}
.status-graded,.status-partial{background:#c98a0c}
.status-pending{background:#8a93a3}
.status-blocked{background:#d2571f}
.status-rejected{background:#b3202a}
.status-not-applicable{background:#c3c8d0;color:#1d2430}
.grade{font-weight:700;margin-left:6px}
ul.tree{list-style:none;padding-left:18px;margin:4px 0}
ul.tree li{margin:3px 0}
.reason{color:#5b6473;margin-left:6px}
table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:13px}
th,td{border-bottom:1px solid #e6e9ee;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f0f2f5}
details{margin:6px 0}
summary{cursor:pointer;font-weight:600}
code{font-size:12px;background:#f0f2f5;padding:0 3px;border-radius:3px}
.blockers li{color:#b3202a}
header code{background:#3a4354;color:#fff;font-size:16px;padding:1px 6px}
.none,.blockers li.none{color:#5b6473}
"#;

/// Renders the report.
pub fn render(input: &ReportInput) -> String {
    let index = &input.index;
    let status = index["status"].as_str().unwrap_or("pending");
    let grade = index["grade"].as_str().unwrap_or("no grade");
    let mut nodes = Vec::new();
    collect_nodes(input, &mut nodes);
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>Grading report — {kind} {id}</title><style>{STYLE}</style></head>\n<body>\
         <header><h1>Grading report — {kind} <code>{id}</code></h1>\
         <p>FlowMCP Grading-Spec 2.0.0 · {system} · generated {at} by flowmcp-grading {version}</p></header>\n<main>",
        kind = input.kind,
        id = esc(&input.id),
        system = crate::model::GRADING_SYSTEM,
        at = esc(&input.generated_at),
        version = env!("CARGO_PKG_VERSION"),
    );
    let _ = writeln!(
        html,
        "<section id=\"rollup\" data-status=\"{s}\" data-grade=\"{g}\"><h2>Rollup</h2>\
         <span class=\"badge status-{s}\">{s}</span><span class=\"grade\">{g}</span>{reason}</section>",
        s = esc(status),
        g = esc(grade),
        reason = index["gradeReason"]
            .as_str()
            .map(|r| format!("<span class=\"reason\">{}</span>", esc(r)))
            .unwrap_or_default()
    );
    html.push_str(&chart(&nodes));
    html.push_str("<section id=\"tree\"><h2>Graded tree</h2><ul class=\"tree\">");
    for node in &nodes {
        let _ = write!(
            html,
            "<li class=\"node\" style=\"margin-left:{}px\" data-node=\"{}\" data-status=\"{}\">{} <span class=\"badge status-{}\">{}</span>{}{}</li>",
            node.depth * 18,
            esc(&node.path),
            esc(&node.status),
            esc(&node.label),
            esc(&node.status),
            esc(&node.status),
            node.grade
                .as_ref()
                .map(|g| format!("<span class=\"grade\">{}</span>", esc(g)))
                .unwrap_or_default(),
            node.reason
                .as_ref()
                .map(|r| format!("<span class=\"reason\">— {}</span>", esc(r)))
                .unwrap_or_default()
        );
    }
    html.push_str("</ul></section>\n");
    let blockers = index["blockers"].as_array().cloned().unwrap_or_default();
    let _ = write!(
        html,
        "<section id=\"blockers\"><h2>Blockers ({})</h2><ul class=\"blockers\">",
        blockers.len()
    );
    if blockers.is_empty() {
        html.push_str("<li class=\"none\">none</li>");
    }
    for b in &blockers {
        let _ = write!(
            html,
            "<li><code>{}</code> {}</li>",
            esc(&text_of(&b["node"])),
            esc(&text_of(&b["reason"]))
        );
    }
    html.push_str("</ul></section>\n");
    if input.kind == "selection" {
        html.push_str(&selection_sections(index));
    }
    html.push_str(&entries_section(input, &nodes));
    if !input.pretests.is_empty() {
        html.push_str(&pretest_section(&input.pretests));
    }
    html.push_str(
        "</main>\n<script>document.body.dataset.nodes=document.querySelectorAll('li.node').length;\
         document.body.dataset.entries=document.querySelectorAll('details.entry').length;</script>\n</body></html>\n",
    );
    html
}

/// One node of the tree, flattened.
struct NodeRow {
    depth: usize,
    path: String,
    label: String,
    status: String,
    grade: Option<String>,
    reason: Option<String>,
    reference: Option<String>,
}

fn row(depth: usize, path: &str, label: &str, node: &Value) -> NodeRow {
    NodeRow {
        depth,
        path: path.to_owned(),
        label: label.to_owned(),
        status: node["status"].as_str().unwrap_or("pending").to_owned(),
        grade: node["grade"].as_str().map(str::to_owned),
        reason: node["reason"].as_str().map(str::to_owned),
        reference: node["ref"].as_str().map(str::to_owned),
    }
}

fn collect_nodes(input: &ReportInput, out: &mut Vec<NodeRow>) {
    let index = &input.index;
    if input.kind == "selection" {
        for (id, node) in index["members"].as_object().into_iter().flatten() {
            out.push(row(
                0,
                &format!("members.{id}"),
                &format!("member {id}"),
                node,
            ));
        }
        out.push(row(0, "about", "About (domain knowledge)", &index["about"]));
        for (name, node) in index["skills"].as_object().into_iter().flatten() {
            let level = node["level"].as_str().unwrap_or("?");
            out.push(row(
                0,
                &format!("skills.{name}"),
                &format!("skill {name} ({level})"),
                node,
            ));
        }
        out.push(row(
            0,
            "selectionAggregate",
            "selection aggregate",
            &index["selectionAggregate"],
        ));
        return;
    }
    for (slug, schema) in index["schemas"].as_object().into_iter().flatten() {
        out.push(row(
            0,
            &format!("schemas.{slug}"),
            &format!("schema {slug}"),
            schema,
        ));
        for (tool, node) in schema["tools"].as_object().into_iter().flatten() {
            out.push(row(
                1,
                &format!("schemas.{slug}.tools.{tool}"),
                &format!("tool {tool}"),
                node,
            ));
        }
        out.push(row(
            1,
            &format!("schemas.{slug}.toolsAggregate"),
            "tools-aggregate",
            &schema["toolsAggregate"],
        ));
    }
    out.push(row(0, "about", "About", &index["about"]));
    for (name, node) in index["skills"].as_object().into_iter().flatten() {
        out.push(row(
            0,
            &format!("skills.{name}"),
            &format!("skill {name}"),
            node,
        ));
    }
    out.push(row(
        0,
        "description",
        "namespace description",
        &index["description"],
    ));
    out.push(row(
        0,
        "namespaceAggregate",
        "namespace aggregate",
        &index["namespaceAggregate"],
    ));
}

/// An inline SVG bar chart of the grades of the tree's nodes.
fn chart(nodes: &[NodeRow]) -> String {
    let labels = ["A", "B", "C", "D", "F", "REJECTED", "none"];
    let counts: Vec<usize> = labels
        .iter()
        .map(|l| {
            nodes
                .iter()
                .filter(|n| match &n.grade {
                    Some(g) => g == l,
                    None => *l == "none" && n.status != "not-applicable",
                })
                .count()
        })
        .collect();
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    let colours = [
        "#1f8a4c", "#58a55c", "#c98a0c", "#d2571f", "#b3202a", "#7a0f17", "#8a93a3",
    ];
    let mut svg = String::from(
        "<section id=\"chart\"><h2>Grade distribution</h2><svg role=\"img\" aria-label=\"grade distribution\" width=\"520\" height=\"170\" viewBox=\"0 0 520 170\">",
    );
    for (i, ((label, count), colour)) in labels.iter().zip(&counts).zip(colours).enumerate() {
        let height = (*count as f64 / max as f64 * 110.0).round();
        let x = 20 + i * 70;
        let _ = write!(
            svg,
            "<g class=\"bar\" data-grade=\"{label}\" data-count=\"{count}\"><rect x=\"{x}\" y=\"{y}\" width=\"46\" height=\"{height}\" fill=\"{colour}\"></rect>\
             <text x=\"{tx}\" y=\"{ly}\" text-anchor=\"middle\" font-size=\"12\">{label}</text>\
             <text x=\"{tx}\" y=\"{cy}\" text-anchor=\"middle\" font-size=\"12\">{count}</text></g>",
            y = 130.0 - height,
            tx = x + 23,
            ly = 150,
            cy = 125.0 - height,
        );
    }
    svg.push_str("</svg></section>\n");
    svg
}

fn selection_sections(index: &Value) -> String {
    let mut html = String::new();
    let t = &index["thresholds"];
    let _ = writeln!(
        html,
        "<section id=\"thresholds\"><h2>Thresholds</h2><p>{} member namespaces · band <code>{}</code> · best grade {}</p></section>",
        esc(&text_of(&t["memberNamespaces"])),
        esc(&text_of(&t["band"])),
        esc(&text_of(&t["maxGrade"]))
    );
    let lock = &index["lockSnapshot"];
    html.push_str("<section id=\"lock\"><h2>lockSnapshot</h2>");
    if lock.is_object() {
        let _ = write!(
            html,
            "<p>frozen {} · selection hash <code>{}</code></p><table><tr><th>member</th><th>schemaHash</th><th>schemaVersion</th><th>gradingStatus</th></tr>",
            esc(&text_of(&lock["generatedAt"])),
            esc(&text_of(&lock["selectionHash"]))
        );
        for m in lock["members"].as_array().into_iter().flatten() {
            let _ = write!(
                html,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td><span class=\"badge status-{s}\">{s}</span></td></tr>",
                esc(&text_of(&m["schemaId"])),
                esc(&text_of(&m["schemaHash"])),
                esc(&text_of(&m["schemaVersion"])),
                s = esc(&text_of(&m["gradingStatus"]))
            );
        }
        html.push_str("</table>");
    } else {
        html.push_str("<p>none yet: frozen by the first selection emit</p>");
    }
    html.push_str("</section>\n");
    html
}

fn read_json(path: &Path) -> Option<Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

fn entries_section(input: &ReportInput, nodes: &[NodeRow]) -> String {
    let mut html = String::from("<section id=\"entries\"><h2>Answers per graded node</h2>");
    let mut first = true;
    for node in nodes {
        let Some(reference) = &node.reference else {
            continue;
        };
        let path = input.base.join(reference);
        let Some(entry) = read_json(&path) else {
            continue;
        };
        let sidecar = read_json(&path.with_file_name(format!(
            "{}.sidecar",
            path.file_name().unwrap_or_default().to_string_lossy()
        )));
        let _ = write!(
            html,
            "<details class=\"entry\"{} data-node=\"{}\"><summary>{} — {} {}</summary><p><code>{}</code> · {} · tier {} · gradingId <code>{}</code></p>\
             <table><tr><th>question</th><th>score</th><th>by</th><th>reasoning</th><th>evidence</th></tr>",
            if std::mem::take(&mut first) {
                " open"
            } else {
                ""
            },
            esc(&node.path),
            esc(&node.label),
            esc(&text_of(&entry["area"])),
            esc(&text_of(&entry["aggregateGrade"])),
            esc(reference),
            esc(&text_of(&entry["gradingMode"])),
            esc(&text_of(&entry["gradingTier"])),
            esc(&text_of(&entry["gradingId"])),
        );
        for answer in entry["gradings"].as_array().into_iter().flatten() {
            let id = text_of(&answer["questionId"]);
            let question = catalogue::get(&id)
                .map(|q| q.question.clone())
                .unwrap_or_default();
            let mut score = text_of(&answer["score"]);
            if let Some(reason) = answer["naReason"].as_str() {
                score = format!("{score} ({reason})");
            }
            let _ = write!(
                html,
                "<tr><td><code>{}</code> {}</td><td class=\"score\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&id),
                esc(&question),
                esc(&score),
                esc(&text_of(&answer["determinism"])),
                esc(&text_of(&answer["reasoning"])),
                esc(&text_of(&answer["evidence"])),
            );
        }
        html.push_str("</table>");
        if let Some(veto) = entry.get("categoricalVeto").filter(|v| v.is_object()) {
            let _ = write!(
                html,
                "<p class=\"veto\"><strong>veto</strong> {}: {}</p>",
                esc(&text_of(&veto["triggeredBy"])),
                esc(&text_of(&veto["evidence"]))
            );
        }
        let hints = sidecar
            .as_ref()
            .and_then(|s| s["improvementHints"].as_array().cloned())
            .unwrap_or_default();
        if !hints.is_empty() {
            html.push_str("<p>Improvement hints:</p><ul>");
            for hint in &hints {
                let _ = write!(
                    html,
                    "<li><code>{}</code> {} ({})</li>",
                    esc(&text_of(&hint["targetField"])),
                    esc(&text_of(&hint["suggestion"])),
                    esc(&text_of(&hint["priority"]))
                );
            }
            html.push_str("</ul>");
        }
        html.push_str("</details>\n");
    }
    html.push_str("</section>\n");
    html
}

fn pretest_section(pretests: &[(String, Value, Vec<Value>)]) -> String {
    let mut html = String::from(
        "<section id=\"pretest\"><h2>Deterministic pretest</h2><table><tr><th>schema</th><th>tool</th><th>working / total</th><th>status</th><th>tests</th></tr>",
    );
    for (schema, summary, tests) in pretests {
        for (tool, row) in summary["perTool"].as_object().into_iter().flatten() {
            let cells: Vec<String> = tests
                .iter()
                .filter(|t| t["tool"] == tool.as_str())
                .map(|t| {
                    format!(
                        "#{} {} ({})",
                        text_of(&t["test"]),
                        text_of(&t["status"]),
                        text_of(&t["httpStatus"])
                    )
                })
                .collect();
            let _ = write!(
                html,
                "<tr class=\"pretest-row\"><td>{}</td><td>{}</td><td>{} / {}</td><td>{}{}</td><td>{}</td></tr>",
                esc(schema),
                esc(tool),
                esc(&text_of(&row["working"])),
                esc(&text_of(&row["total"])),
                esc(&text_of(&row["status"])),
                row["reason"]
                    .as_str()
                    .map(|r| format!(" — {}", esc(r)))
                    .unwrap_or_default(),
                esc(&cells.join(", "))
            );
        }
    }
    html.push_str("</table></section>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn everything_from_input_is_escaped() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        let input = ReportInput {
            kind: "namespace",
            id: "<script>x</script>".into(),
            index: json!({"status": "partial", "grade": "B", "schemas": {"s": {"status": "graded", "grade": "C", "reason": "<img src=x onerror=alert(1)>", "tools": {}}}, "blockers": [{"node": "n", "reason": "<b>"}]}),
            base: PathBuf::from("/nonexistent"),
            pretests: Vec::new(),
            generated_at: "now".into(),
        };
        let html = render(&input);
        assert!(!html.contains("<script>x"));
        assert!(!html.contains("<img"));
        assert!(html.contains("data-grade=\"C\" data-count=\"1\""));
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "no external assets"
        );
    }
}
