//! Q-single-test-03 and the `api-key-domain-mismatch` veto (spec-digest §14 item 21): API-key
//! names are tokenised, generic tokens dropped, and the rest compared with the API's domain
//! label. A token that names a *different* known provider is a veto candidate.

/// Version of the alias table below; it is part of what a deterministic answer depends on.
pub const ALIAS_TABLE_VERSION: &str = "1.0.0";

/// Known providers: the key-name token and the domains that belong to it.
pub const KNOWN_PROVIDERS: &[(&str, &[&str])] = &[
    ("ALCHEMY", &["alchemy.com", "alchemyapi.io"]),
    ("ANTHROPIC", &["anthropic.com"]),
    ("BSCSCAN", &["bscscan.com"]),
    ("CMC", &["coinmarketcap.com"]),
    ("COINGECKO", &["coingecko.com"]),
    ("COINMARKETCAP", &["coinmarketcap.com"]),
    ("COVALENT", &["covalenthq.com"]),
    ("DUNE", &["dune.com"]),
    ("ETHERSCAN", &["etherscan.io"]),
    ("GITHUB", &["github.com"]),
    ("GOOGLE", &["googleapis.com", "google.com"]),
    ("HELIUS", &["helius-rpc.com", "helius.xyz", "helius.dev"]),
    ("INFURA", &["infura.io"]),
    ("MORALIS", &["moralis.io"]),
    ("OPENAI", &["openai.com"]),
    ("OPENWEATHER", &["openweathermap.org"]),
    ("POLYGONSCAN", &["polygonscan.com"]),
    ("SOLSCAN", &["solscan.io"]),
    ("THEGRAPH", &["thegraph.com"]),
];

/// Tokens that say what kind of secret it is, not whose.
const GENERIC: &[&str] = &[
    "API",
    "KEY",
    "KEYS",
    "TOKEN",
    "SECRET",
    "ACCESS",
    "AUTH",
    "ACCOUNT",
    "ID",
    "CLIENT",
    "PRO",
    "PRIVATE",
    "PUBLIC",
    "BEARER",
    "APIKEY",
    "PASSWORD",
    "USER",
    "USERNAME",
    "SUBDOMAIN",
    "URL",
    "HOST",
    "PROJECT",
    "APP",
    "V1",
    "V2",
    "V3",
];

/// Second-level suffixes under which the registrable label is one further left.
const TWO_LEVEL_SUFFIXES: &[&str] = &[
    "co.uk", "com.au", "co.jp", "com.br", "co.in", "gov.uk", "org.uk",
];

/// The registrable label of a host (`api.etherscan.io` → `etherscan`); placeholders such as
/// `{{ACCOUNT}}` only ever sit in subdomains and are ignored.
pub fn domain_label(root: &str) -> Option<String> {
    let rest = root.split("://").nth(1).unwrap_or(root);
    let host = rest.split(['/', '?', '#']).next()?.split(':').next()?;
    let labels: Vec<&str> = host
        .split('.')
        .filter(|l| !l.is_empty() && !l.contains("{{"))
        .collect();
    if labels.len() < 2 {
        return labels.first().map(|l| l.to_ascii_lowercase());
    }
    let tail = format!("{}.{}", labels[labels.len() - 2], labels[labels.len() - 1]);
    let index = if TWO_LEVEL_SUFFIXES.contains(&tail.as_str()) && labels.len() >= 3 {
        labels.len() - 3
    } else {
        labels.len() - 2
    };
    Some(labels[index].to_ascii_lowercase())
}

/// The distinctive tokens of a key name (`ETHERSCAN_API_KEY` → `["etherscan"]`).
pub fn distinctive_tokens(key: &str) -> Vec<String> {
    key.split(['_', '-'])
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_uppercase)
        .filter(|t| !GENERIC.contains(&t.as_str()))
        .map(|t| t.to_ascii_lowercase())
        .collect()
}

/// How one key name relates to the API's domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMatch {
    /// A token is contained in the label (or the label in a token), or the namespace.
    Matches,
    /// Only generic tokens: nothing to compare.
    Generic,
    /// Distinctive tokens that match neither the domain nor the namespace.
    NoMatch { tokens: Vec<String> },
    /// A token names a different known provider.
    OtherProvider { token: String, domains: Vec<String> },
}

pub fn classify_key(key: &str, label: Option<&str>, namespace: &str) -> KeyMatch {
    let tokens = distinctive_tokens(key);
    if tokens.is_empty() {
        return KeyMatch::Generic;
    }
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "");
    let targets: Vec<String> = label
        .into_iter()
        .map(norm)
        .chain(std::iter::once(norm(namespace)))
        .filter(|t| !t.is_empty())
        .collect();
    let matches = |token: &str| {
        targets
            .iter()
            .any(|t| t.contains(token) || (token.len() >= 3 && token.contains(t.as_str())))
    };
    let known = |token: &str| {
        let upper = token.to_ascii_uppercase();
        KNOWN_PROVIDERS
            .iter()
            .find(|(name, _)| *name == upper)
            .map(|(_, domains)| *domains)
    };
    let own = |domains: &[&str]| {
        label.is_some_and(|l| domains.iter().any(|d| d.split('.').next() == Some(l)))
    };
    if tokens
        .iter()
        .any(|t| matches(t) || known(t).is_some_and(own))
    {
        return KeyMatch::Matches;
    }
    for token in &tokens {
        if let Some(domains) = known(token) {
            return KeyMatch::OtherProvider {
                token: token.clone(),
                domains: domains.iter().map(|d| (*d).to_owned()).collect(),
            };
        }
    }
    KeyMatch::NoMatch { tokens }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(
            domain_label("https://api.etherscan.io/api").as_deref(),
            Some("etherscan")
        );
        assert_eq!(
            domain_label("https://{{ACC}}.keygated.example/v2").as_deref(),
            Some("keygated")
        );
        assert_eq!(
            domain_label("https://data.gov.uk/x").as_deref(),
            Some("data")
        );
        assert_eq!(domain_label("http://127.0.0.1:8080").as_deref(), Some("0"));
        assert_eq!(domain_label("").as_deref(), None);
    }

    #[test]
    fn key_classification_table() {
        let cases: &[(&str, &str, &str, KeyMatch)] = &[
            (
                "ETHERSCAN_API_KEY",
                "https://api.etherscan.io/api",
                "etherscan",
                KeyMatch::Matches,
            ),
            (
                "CMC_API_KEY",
                "https://pro-api.coinmarketcap.com",
                "coinmarketcap",
                KeyMatch::Matches,
            ),
            ("API_KEY", "https://api.x.example", "x", KeyMatch::Generic),
            (
                "KEYGATED_API_KEY",
                "https://api.keygated.example",
                "keygated",
                KeyMatch::Matches,
            ),
            (
                "ACME_TOKEN",
                "https://api.other.example",
                "other",
                KeyMatch::NoMatch {
                    tokens: vec!["acme".into()],
                },
            ),
            (
                "ETHERSCAN_API_KEY",
                "https://mainnet.infura.io/v3",
                "infura",
                KeyMatch::OtherProvider {
                    token: "etherscan".into(),
                    domains: vec!["etherscan.io".into()],
                },
            ),
        ];
        for (key, root, ns, expected) in cases {
            let label = domain_label(root);
            assert_eq!(
                &classify_key(key, label.as_deref(), ns),
                expected,
                "{key} @ {root}"
            );
        }
    }
}
