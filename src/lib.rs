//! flowmcp-grading: grades FlowMCP schemas and selections per the FlowMCP Grading-Spec 2.0.0.
//!
//! The library is the tool's implementation; its API carries no stability promise.

pub mod diagnostic;
pub mod model;
pub mod grading;
pub mod scoring;
pub mod timestamp;
pub mod veto;
