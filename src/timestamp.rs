//! The two timestamp forms of the spec: `YYYY-MM-DDTHH-MM-SSZ` in file names and ids, RFC 3339
//! with colons inside entries.

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};

const FILE_FORMAT: &str = "%Y-%m-%dT%H-%M-%SZ";

/// `2026-06-04T10-15-00Z`: the file-name and id grammar.
pub fn to_file_ts(at: DateTime<Utc>) -> String {
    at.format(FILE_FORMAT).to_string()
}

/// Parses the file-name grammar exactly (no milliseconds, no offset other than `Z`).
pub fn parse_file_ts(text: &str) -> Option<DateTime<Utc>> {
    if text.len() != 20 {
        return None;
    }
    NaiveDateTime::parse_from_str(text, FILE_FORMAT)
        .ok()
        .map(|naive| naive.and_utc())
}

/// `2026-06-04T10:15:00Z`: the form used inside entries.
pub fn to_rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Parses an RFC 3339 date-time with any offset, normalised to UTC.
pub fn parse_rfc3339(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|at| at.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_grammar_round_trips() {
        let at = parse_rfc3339("2026-06-04T10:15:00Z").unwrap();
        assert_eq!(to_file_ts(at), "2026-06-04T10-15-00Z");
        assert_eq!(parse_file_ts("2026-06-04T10-15-00Z"), Some(at));
        assert_eq!(to_rfc3339(at), "2026-06-04T10:15:00Z");
    }

    #[test]
    fn file_grammar_is_strict() {
        for bad in [
            "2026-06-04T10-15Z",
            "2026-06-04T10-15-00.123Z",
            "2026-06-04T10:15:00Z",
            "2026-13-04T10-15-00Z",
            "",
        ] {
            assert_eq!(parse_file_ts(bad), None, "{bad}");
        }
    }

    #[test]
    fn rfc3339_offsets_normalise() {
        assert_eq!(
            parse_rfc3339("2026-06-04T12:15:00+02:00"),
            parse_rfc3339("2026-06-04T10:15:00Z")
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }
}
