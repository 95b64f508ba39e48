//! The spec's closed string sets. Each enum serialises to exactly the spec's spelling and knows
//! its full list, so error messages can name the allowed values.

use serde::{Deserialize, Serialize};

/// Declares a closed string set: serde names, `ALL`, `as_str`, `Display` and `FromStr`.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The allowed spellings, for error messages.
            pub fn allowed() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| format!("`{s}` is not one of: {}", Self::allowed()))
            }
        }
    };
}

string_enum!(
    /// Attainability axis: provider side caps at B, selection side reaches A.
    Tier {
        Autonomous => "autonomous",
        GroupBound => "group-bound",
    }
);

string_enum!(
    /// Reproducibility axis of one answer.
    Determinism {
        Deterministic => "deterministic",
        NonDeterministic => "non-deterministic",
    }
);

string_enum!(GraderKind {
    Llm => "llm",
    Human => "human",
    Script => "script",
});

string_enum!(
    /// `full` recomputes the aggregate; `partial` leaves it at the last full value.
    GradingMode {
        Partial => "partial",
        Full => "full",
    }
);

string_enum!(Harness {
    ClaudeCode => "claude-code",
});

string_enum!(
    /// The closed set of reasons an answer may be `n/a` (spec ch. 08 §5.3).
    NaReason {
        NotApplicableToToolType => "not-applicable-to-tool-type",
        RequiresPrivateData => "requires-private-data",
        BlockedByPrecondition => "blocked-by-precondition",
        OutOfScopeResource => "out-of-scope-resource",
        OutOfScopePrompt => "out-of-scope-prompt",
        OutOfScopeProcedure => "out-of-scope-procedure",
    }
);

string_enum!(
    /// The four generalised personas (spec ch. 12).
    BasePersona {
        AiEngineer => "ai-engineer",
        DecisionMaker => "decision-maker",
        HackathonBuilder => "hackathon-builder",
        SchemaMaintainer => "schema-maintainer",
    }
);

string_enum!(
    /// The closed list of categorical veto triggers (spec ch. 09).
    VetoTrigger {
        MaliciousModule => "malicious-module",
        ApiKeyDomainMismatch => "api-key-domain-mismatch",
        IllegalContent => "illegal-content",
        AiSecurityVeto => "ai-security-veto",
    }
);

string_enum!(
    /// Why a re-grading happened.
    RegradingTriggerKind {
        UserReport => "user-report",
        Scheduled => "scheduled",
        ScoringSystemBump => "scoring-system-bump",
        GradingSystemBump => "grading-system-bump",
    }
);

string_enum!(
    /// Status of one node (tool, schema, About, skill, member).
    NodeStatus {
        Pending => "pending",
        Blocked => "blocked",
        Graded => "graded",
        Stable => "stable",
        Rejected => "rejected",
    }
);

string_enum!(
    /// Status of an `index.json` rollup; never mixed with node statuses.
    RollupStatus {
        Operational => "operational",
        Partial => "partial",
        Blocked => "blocked",
        Pending => "pending",
        Rejected => "rejected",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        assert_eq!(NaReason::ALL.len(), 6);
        assert_eq!(VetoTrigger::ALL.len(), 4);
        assert_eq!(RegradingTriggerKind::ALL.len(), 4);
        assert_eq!(BasePersona::ALL.len(), 4);
        assert_eq!(NodeStatus::ALL.len(), 5);
        assert_eq!(RollupStatus::ALL.len(), 5);
        for reason in NaReason::ALL {
            assert_eq!(reason.as_str().parse::<NaReason>().unwrap(), *reason);
            assert_eq!(
                serde_json::to_string(reason).unwrap(),
                format!("\"{reason}\"")
            );
        }
        assert_eq!("group-bound".parse::<Tier>().unwrap(), Tier::GroupBound);
        let err = "because".parse::<NaReason>().unwrap_err();
        assert!(err.contains("blocked-by-precondition"), "{err}");
    }
}
