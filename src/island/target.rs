//! Which namespace or selection a command means: a bare id (`defillama`) or an explicit
//! `providers/<ns>` / `selections/<sel>` (both forms work, unlike the node CLI).

use super::names::is_id;
use super::{Island, IslandError, layout};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Provider(String),
    Selection(String),
}

impl Island {
    pub fn resolve_target(&self, target: &str) -> Result<Target, IslandError> {
        let target = target.trim_end_matches('/');
        let not_found = || IslandError::TargetNotFound {
            target: target.to_owned(),
            root: self.root.clone(),
        };
        let (explicit, id) = match target.split_once('/') {
            Some((kind @ ("providers" | "selections"), id)) => (Some(kind), id),
            Some(_) => return Err(not_found()),
            None => (None, target),
        };
        if !is_id(id) {
            return Err(not_found());
        }
        let provider = self.root.join(layout::provider(id)).is_dir();
        let selection = self.root.join(layout::selection(id)).is_dir();
        match (explicit, provider, selection) {
            (Some("providers"), true, _) | (None, true, false) => {
                Ok(Target::Provider(id.to_owned()))
            }
            (Some("selections"), _, true) | (None, false, true) => {
                Ok(Target::Selection(id.to_owned()))
            }
            (None, true, true) => Err(IslandError::TargetAmbiguous(id.to_owned())),
            _ => Err(not_found()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_explicit_ambiguous_and_missing() {
        let dir = tempfile::tempdir().unwrap();
        let island = Island::open(dir.path()).unwrap();
        std::fs::create_dir_all(dir.path().join("providers/both")).unwrap();
        std::fs::create_dir_all(dir.path().join("selections/both")).unwrap();
        std::fs::create_dir_all(dir.path().join("providers/only")).unwrap();
        assert_eq!(
            island.resolve_target("only").unwrap(),
            Target::Provider("only".into())
        );
        assert_eq!(
            island.resolve_target("providers/only/").unwrap(),
            Target::Provider("only".into())
        );
        assert_eq!(
            island.resolve_target("selections/both").unwrap(),
            Target::Selection("both".into())
        );
        let code = |t: &str| crate::diagnostic::Coded::code(&island.resolve_target(t).unwrap_err());
        assert_eq!(code("both"), "ISL-010");
        for missing in [
            "nothere",
            "selections/only",
            "providers/../x",
            "../x",
            "a/b/c",
            "Only",
        ] {
            assert_eq!(code(missing), "ISL-009", "{missing}");
        }
    }
}
