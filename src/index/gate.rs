//! The pre-condition gate of a selection grading (spec ch. 21, spec-digest §10.2): it reads only
//! the frozen `lockSnapshot`, and every member must be `stable`. Anything else — `pending`,
//! `blocked`, `graded`, `rejected`, or a missing status — blocks the whole run, and the spec's
//! block is printed exactly.

use serde_json::Value;
use std::fmt;

/// A member that blocks the gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonStable {
    pub schema_id: String,
    pub schema_hash: String,
    pub status: String,
}

/// The gate's refusal (code PRE-004).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateBlocked {
    pub selection: String,
    pub members: Vec<NonStable>,
}

impl fmt::Display for GateBlocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "PRE-CONDITION FAILED — selection-grading blocked")?;
        writeln!(f, "Selection: {}", self.selection)?;
        writeln!(
            f,
            "Source: selections/{}/index.json (lockSnapshot)",
            self.selection
        )?;
        writeln!(f, "Non-stable Members:")?;
        for m in &self.members {
            writeln!(
                f,
                "  - {} (schemaHash {}, gradingStatus: {})",
                m.schema_id, m.schema_hash, m.status
            )?;
        }
        write!(
            f,
            "Follow-up action: complete the Single-Gradings, then rebuild the index and refreeze the lockSnapshot."
        )
    }
}

/// Checks a lockSnapshot. An empty member list passes (the definition check already refuses
/// selections without members).
pub fn check(lock: &Value) -> Result<(), GateBlocked> {
    let text = |v: &Value, fallback: &str| v.as_str().unwrap_or(fallback).to_owned();
    let members: Vec<NonStable> = lock["members"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["gradingStatus"] != "stable")
        .map(|m| NonStable {
            schema_id: text(&m["schemaId"], "?"),
            schema_hash: text(&m["schemaHash"], "--------"),
            status: text(&m["gradingStatus"], "pending"),
        })
        .collect();
    if members.is_empty() {
        Ok(())
    } else {
        Err(GateBlocked {
            selection: text(&lock["selectionId"], "?"),
            members,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_stable_passes_and_the_block_is_the_spec_text() {
        let lock = json!({"selectionId": "crypto-domain-full", "members": [
            {"schemaId": "binance.ticker", "schemaHash": "a1b2c3d4", "gradingStatus": "graded"},
            {"schemaId": "kraken.ticker", "schemaHash": "b2c3d4e5", "gradingStatus": "stable"},
            {"schemaId": "jupiter.swap", "schemaHash": "c3d4e5f6", "gradingStatus": "pending"}
        ]});
        let blocked = check(&lock).unwrap_err();
        assert_eq!(
            blocked.to_string(),
            "PRE-CONDITION FAILED \u{2014} selection-grading blocked\n\
             Selection: crypto-domain-full\n\
             Source: selections/crypto-domain-full/index.json (lockSnapshot)\n\
             Non-stable Members:\n  \
             - binance.ticker (schemaHash a1b2c3d4, gradingStatus: graded)\n  \
             - jupiter.swap (schemaHash c3d4e5f6, gradingStatus: pending)\n\
             Follow-up action: complete the Single-Gradings, then rebuild the index and refreeze the lockSnapshot."
        );
        for status in ["blocked", "rejected", "graded", "pending"] {
            let one = json!({"selectionId": "s", "members": [{"schemaId": "a.b", "schemaHash": "aaaaaaaa", "gradingStatus": status}]});
            assert!(check(&one).is_err(), "{status}");
        }
        let ok = json!({"selectionId": "s", "members": [{"schemaId": "a.b", "schemaHash": "aaaaaaaa", "gradingStatus": "stable"}]});
        assert!(check(&ok).is_ok());
    }
}
