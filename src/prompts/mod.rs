//! Stage 1's handoff to the harness: the question catalogue, area selection, personas and the
//! prompt texts (DESIGN.md §6).

pub mod build;
pub mod catalogue;
pub mod emit;
pub mod persona;
pub mod select;
pub mod selection;
