//! One answer's score: a number in `[1.0, 5.0]` or one of `pass`, `fail`, `stale`, `n/a`.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The lowest numeric score.
pub const SCORE_MIN: f64 = 1.0;
/// The highest numeric score.
pub const SCORE_MAX: f64 = 5.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    Number(f64),
    Pass,
    Fail,
    /// Aged past its threshold; excluded from the mean, never turned into `fail`.
    Stale,
    /// Not applicable; excluded from the mean, needs a closed-set `naReason`.
    NotApplicable,
}

impl Score {
    /// The value that enters the weighted mean (`pass` = 5, `fail` = 1); `None` when excluded.
    pub fn value(self) -> Option<f64> {
        match self {
            Score::Number(n) => Some(n),
            Score::Pass => Some(SCORE_MAX),
            Score::Fail => Some(SCORE_MIN),
            Score::Stale | Score::NotApplicable => None,
        }
    }

    pub fn is_na(self) -> bool {
        self == Score::NotApplicable
    }

    pub fn from_keyword(text: &str) -> Option<Score> {
        match text {
            "pass" => Some(Score::Pass),
            "fail" => Some(Score::Fail),
            "stale" => Some(Score::Stale),
            "n/a" => Some(Score::NotApplicable),
            _ => None,
        }
    }

    pub fn keyword(self) -> Option<&'static str> {
        match self {
            Score::Number(_) => None,
            Score::Pass => Some("pass"),
            Score::Fail => Some("fail"),
            Score::Stale => Some("stale"),
            Score::NotApplicable => Some("n/a"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Number(n) => write!(f, "{n}"),
            other => f.write_str(other.keyword().unwrap_or_default()),
        }
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Score::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => s.serialize_i64(*n as i64),
            Score::Number(n) => s.serialize_f64(*n),
            other => s.serialize_str(other.keyword().unwrap_or_default()),
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ScoreVisitor;

        impl Visitor<'_> for ScoreVisitor {
            type Value = Score;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or one of \"pass\", \"fail\", \"stale\", \"n/a\"")
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Score, E> {
                Ok(Score::Number(v))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Score, E> {
                Ok(Score::Number(v as f64))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Score, E> {
                Ok(Score::Number(v as f64))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Score, E> {
                Score::from_keyword(v)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }

        d.deserialize_any(ScoreVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_for_the_mean() {
        assert_eq!(Score::Pass.value(), Some(5.0));
        assert_eq!(Score::Fail.value(), Some(1.0));
        assert_eq!(Score::Number(3.5).value(), Some(3.5));
        assert_eq!(Score::Stale.value(), None);
        assert_eq!(Score::NotApplicable.value(), None);
    }

    #[test]
    fn serde_round_trip() {
        for v in [
            json!(4),
            json!(4.5),
            json!("pass"),
            json!("fail"),
            json!("stale"),
            json!("n/a"),
        ] {
            let s: Score = serde_json::from_value(v.clone()).unwrap();
            assert_eq!(serde_json::to_value(s).unwrap(), v);
        }
        assert!(serde_json::from_value::<Score>(json!("PASS")).is_err());
        assert!(serde_json::from_value::<Score>(json!("3")).is_err());
        assert!(serde_json::from_value::<Score>(json!(null)).is_err());
    }
}
