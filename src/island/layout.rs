//! Where things live in the island, as paths relative to its root (reference-cli.md §2.0).
//! Callers validate every name taken from input (`names::check_id`, `names::check_slug`) before
//! building a path with it.

use std::path::PathBuf;

pub const PROVIDERS: &str = "providers";
pub const SELECTIONS: &str = "selections";
pub const SHARED_LISTS: &str = "shared-lists";
pub const GRADINGS: &str = "_gradings";
pub const INDEX_FILE: &str = "index.json";

/// `providers/<ns>`
pub fn provider(ns: &str) -> PathBuf {
    [PROVIDERS, ns].iter().collect()
}

/// `providers/<ns>/index.json`
pub fn namespace_index(ns: &str) -> PathBuf {
    provider(ns).join(INDEX_FILE)
}

/// `providers/<ns>/<schema>`
pub fn schema(ns: &str, slug: &str) -> PathBuf {
    provider(ns).join(slug)
}

/// `providers/<ns>/<schema>/schema` — the frozen byte copies of the source file.
pub fn snapshots(ns: &str, slug: &str) -> PathBuf {
    schema(ns, slug).join("schema")
}

/// `providers/<ns>/<schema>/resources/about`
pub fn about(ns: &str, slug: &str) -> PathBuf {
    schema(ns, slug).join("resources").join("about")
}

/// `providers/<ns>/<schema>/skills/<skill>`
pub fn skill(ns: &str, slug: &str, skill: &str) -> PathBuf {
    schema(ns, slug).join("skills").join(skill)
}

/// `shared-lists/<list>`
pub fn shared_list(list: &str) -> PathBuf {
    [SHARED_LISTS, list].iter().collect()
}

/// `selections/<sel>`
pub fn selection(sel: &str) -> PathBuf {
    [SELECTIONS, sel].iter().collect()
}

/// `selections/<sel>/selection` — the snapshots of the definition.
pub fn selection_definitions(sel: &str) -> PathBuf {
    selection(sel).join("selection")
}

/// `selections/<sel>/resources/about` — the selection's About (its domain-knowledge document).
pub fn selection_about(sel: &str) -> PathBuf {
    selection(sel).join("resources").join("about")
}

/// `selections/<sel>/skills/<skill>`
pub fn selection_skill(sel: &str, skill: &str) -> PathBuf {
    selection(sel).join("skills").join(skill)
}

/// `selections/<sel>/index.json`
pub fn selection_index(sel: &str) -> PathBuf {
    selection(sel).join(INDEX_FILE)
}
