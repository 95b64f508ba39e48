//! The data of the Grading-Spec 2.0.0: areas, grades, scores, the grading entry, personas and
//! statuses. Pure data with serde; no I/O.

mod area;
mod entry;
mod enums;
mod envelope;
mod grade;
pub(crate) mod score;

pub use area::{AREAS, Area, AreaSpec, Side, UnknownArea};
pub use entry::{
    CategoricalVeto, GraderIdentity, GradingAnswer, GradingEntry, Persona, RegradingTrigger,
    SelectionContext,
};
pub use enums::{
    BasePersona, Determinism, GraderKind, GradingMode, Harness, NaReason, NodeStatus,
    RegradingTriggerKind, RollupStatus, Tier, VetoTrigger,
};
pub use envelope::{AnswerEnvelope, EnvelopeAnswer, HintPriority, ImprovementHint, question_ids};
pub use grade::{AggregateGrade, Grade};
pub use score::Score;

/// The spec version this tool implements.
pub const GRADING_SPEC: &str = "gradingSpec/2.0.0";
/// How tests become scores. Entries carry it verbatim.
pub const SCORING_SYSTEM: &str = "scoringSystem/1.0.0";
/// How scores become grades (thresholds, trim, veto list). Entries carry it verbatim.
pub const GRADING_SYSTEM: &str = "gradingSystem/1.0.0";
