//! Letter grades. `Grade` is ordered so that `F < D < C < B < A`.

use super::enums::Tier;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Grade {
    F,
    D,
    C,
    B,
    A,
}

impl Grade {
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
            Grade::F => "F",
        }
    }

    /// The highest grade an entry of this tier may carry (the tier trim).
    pub fn max_for(tier: Tier) -> Grade {
        match tier {
            Tier::Autonomous => Grade::B,
            Tier::GroupBound => Grade::A,
        }
    }

    /// A or B: the grades that make a node `stable`.
    pub fn is_stable(self) -> bool {
        self >= Grade::B
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Grade {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "A" => Ok(Grade::A),
            "B" => Ok(Grade::B),
            "C" => Ok(Grade::C),
            "D" => Ok(Grade::D),
            "F" => Ok(Grade::F),
            _ => Err(format!("`{s}` is not a grade (A, B, C, D, F)")),
        }
    }
}

/// The `aggregateGrade` of an entry: a letter, or `REJECTED` after a categorical veto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AggregateGrade {
    Letter(Grade),
    Rejected,
}

impl AggregateGrade {
    pub fn as_str(self) -> &'static str {
        match self {
            AggregateGrade::Letter(g) => g.as_str(),
            AggregateGrade::Rejected => "REJECTED",
        }
    }

    pub fn letter(self) -> Option<Grade> {
        match self {
            AggregateGrade::Letter(g) => Some(g),
            AggregateGrade::Rejected => None,
        }
    }
}

impl fmt::Display for AggregateGrade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for AggregateGrade {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s == "REJECTED" {
            return Ok(AggregateGrade::Rejected);
        }
        s.parse::<Grade>()
            .map(AggregateGrade::Letter)
            .map_err(|_| format!("`{s}` is not an aggregate grade (A, B, C, D, F, REJECTED)"))
    }
}

impl Serialize for AggregateGrade {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for AggregateGrade {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_caps() {
        assert!(Grade::A > Grade::B && Grade::B > Grade::C && Grade::D > Grade::F);
        assert_eq!(Grade::max_for(Tier::Autonomous), Grade::B);
        assert_eq!(Grade::max_for(Tier::GroupBound), Grade::A);
        assert!(Grade::B.is_stable() && !Grade::C.is_stable());
    }

    #[test]
    fn aggregate_round_trips() {
        for text in ["A", "B", "C", "D", "F", "REJECTED"] {
            let g: AggregateGrade = serde_json::from_value(serde_json::json!(text)).unwrap();
            assert_eq!(serde_json::to_value(g).unwrap(), serde_json::json!(text));
        }
        assert!("E".parse::<AggregateGrade>().is_err());
        assert!("rejected".parse::<AggregateGrade>().is_err());
    }
}
