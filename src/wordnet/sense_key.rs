//! Sense keys: `lemma%ss_type:lex_filenum:lex_id:head_word:head_id`
//! (senseidx(5WN)). `head_word`/`head_id` are set only for adjective
//! satellites and name the head adjective of the satellite's cluster.

use std::fmt;
use std::str::FromStr;

use super::{Pos, SynsetType};
use crate::Error;

/// A parsed sense key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SenseKey {
    /// Lemma, lower case, `_` for spaces.
    pub lemma: String,
    /// Synset type (1–5).
    pub ss_type: SynsetType,
    /// Lexicographer file number.
    pub lex_filenum: u8,
    /// Lexical id.
    pub lex_id: u8,
    /// Head word and its lex id, for satellites.
    pub head: Option<(String, u8)>,
}

impl fmt::Display for SenseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}%{}:{:02}:{:02}:",
            self.lemma,
            self.ss_type.number(),
            self.lex_filenum,
            self.lex_id
        )?;
        match &self.head {
            Some((w, id)) => write!(f, "{w}:{id:02}"),
            None => write!(f, ":"),
        }
    }
}

impl SenseKey {
    /// The lemma and WordNet category of a key, read from its lemma and
    /// `ss_type` digit without parsing the rest (for hot paths: the scorer,
    /// model lookups); `None` when the key has no `%` or no valid digit.
    pub fn lemma_and_pos(key: &str) -> Option<(&str, Pos)> {
        let (lemma, rest) = key.rsplit_once('%')?;
        let t = match rest.as_bytes().first()? {
            b'1' => SynsetType::Noun,
            b'2' => SynsetType::Verb,
            b'3' => SynsetType::Adj,
            b'4' => SynsetType::Adv,
            b'5' => SynsetType::AdjSatellite,
            _ => return None,
        };
        Some((lemma, t.pos()))
    }

    /// The WordNet category of a key (see [`SenseKey::lemma_and_pos`]).
    pub fn pos_of(key: &str) -> Option<Pos> {
        SenseKey::lemma_and_pos(key).map(|(_, p)| p)
    }
}

impl FromStr for SenseKey {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || Error::BadSenseKey(s.to_string());
        let (lemma, rest) = s.rsplit_once('%').ok_or_else(bad)?;
        let parts: Vec<&str> = rest.split(':').collect();
        if lemma.is_empty() || parts.len() != 5 {
            return Err(bad());
        }
        let ss_type = match parts[0] {
            "1" => SynsetType::Noun,
            "2" => SynsetType::Verb,
            "3" => SynsetType::Adj,
            "4" => SynsetType::Adv,
            "5" => SynsetType::AdjSatellite,
            _ => return Err(bad()),
        };
        let two = |p: &str| {
            if p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()) {
                p.parse::<u8>().ok()
            } else {
                None
            }
        };
        let lex_filenum = two(parts[1]).ok_or_else(bad)?;
        let lex_id = two(parts[2]).ok_or_else(bad)?;
        let head = match (parts[3], parts[4]) {
            ("", "") => None,
            (w, id) if !w.is_empty() => Some((w.to_string(), two(id).ok_or_else(bad)?)),
            _ => return Err(bad()),
        };
        if (ss_type == SynsetType::AdjSatellite) != head.is_some() {
            return Err(bad());
        }
        Ok(SenseKey {
            lemma: lemma.to_string(),
            ss_type,
            lex_filenum,
            lex_id,
            head,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_format_round_trip() {
        for k in [
            "bank%1:14:00::",
            "recent%5:00:00:past:00",
            "take_place%2:30:00::",
            "a%1:10:00::",
        ] {
            let key: SenseKey = k.parse().unwrap();
            assert_eq!(key.to_string(), k);
        }
        let key: SenseKey = "recent%5:00:00:past:00".parse().unwrap();
        assert_eq!(key.head, Some(("past".to_string(), 0)));
    }

    #[test]
    fn malformed_keys_are_refused() {
        for k in [
            "bank",
            "bank%1:14:00",
            "bank%9:14:00::",
            "bank%1:x:00::",
            "recent%5:00:00::",
            "%1:14:00::",
            "bank%1:+4:00::",
        ] {
            assert!(k.parse::<SenseKey>().is_err(), "{k}");
        }
        let e = "bank".parse::<SenseKey>().unwrap_err().to_string();
        assert!(e.contains("malformed sense key \"bank\""), "{e}");
    }

    #[test]
    fn lemma_and_pos_without_a_full_parse() {
        assert_eq!(
            SenseKey::lemma_and_pos("bank%1:14:00::"),
            Some(("bank", Pos::Noun))
        );
        assert_eq!(SenseKey::pos_of("recent%5:00:00:past:00"), Some(Pos::Adj));
        assert_eq!(SenseKey::pos_of("run%2:38:00::"), Some(Pos::Verb));
        assert_eq!(SenseKey::pos_of("bank.n.01"), None);
        assert_eq!(SenseKey::pos_of("x%9:00:00::"), None);
    }
}

#[cfg(test)]
mod prop_tests {
    use super::*;
    use proptest::prelude::*;

    fn ss_type() -> impl Strategy<Value = SynsetType> {
        prop::sample::select(vec![
            SynsetType::Noun,
            SynsetType::Verb,
            SynsetType::Adj,
            SynsetType::Adv,
            SynsetType::AdjSatellite,
        ])
    }

    /// Any key: the lemma may hold anything printable (even `%` and `:`,
    /// since the key is split at its last `%`); the head word anything but
    /// `:`, `%` and white space; a head exactly for satellites.
    fn key() -> impl Strategy<Value = SenseKey> {
        (
            "\\PC{1,16}",
            ss_type(),
            0u8..100,
            0u8..100,
            "[^:%\\s]{1,12}",
            0u8..100,
        )
            .prop_map(|(lemma, ss_type, lex_filenum, lex_id, word, id)| SenseKey {
                lemma,
                ss_type,
                lex_filenum,
                lex_id,
                head: (ss_type == SynsetType::AdjSatellite).then_some((word, id)),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn format_then_parse_is_the_identity(k in key()) {
            let s = k.to_string();
            prop_assert_eq!(s.parse::<SenseKey>().ok(), Some(k.clone()));
            // A head on a non-satellite, or none on a satellite, is refused.
            let mut flipped = k.clone();
            flipped.head = match k.head {
                Some(_) => None,
                None => Some(("head".to_string(), 0)),
            };
            prop_assert!(flipped.to_string().parse::<SenseKey>().is_err(), "{}", flipped);
        }

        #[test]
        fn keys_spelled_as_wordnet_does_print_back_unchanged(
            s in "[a-z0-9_.'-]{1,12}%[1-4]:[0-9]{2}:[0-9]{2}::\
                  |[a-z0-9_.'-]{1,12}%5:[0-9]{2}:[0-9]{2}:[a-z_]{1,8}:[0-9]{2}"
        ) {
            let k: SenseKey = s.parse().map_err(|e: Error| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(k.to_string(), s);
        }

        #[test]
        fn fields_of_the_wrong_width_are_refused(
            lemma in "[a-z]{1,8}",
            t in 1u8..=4,
            bad in "[0-9]|[0-9]{3}",
            good in "[0-9]{2}",
        ) {
            let refused = |s: String| s.parse::<SenseKey>().is_err();
            let keys = [
                format!("{lemma}%{t}:{bad}:{good}::"),
                format!("{lemma}%{t}:{good}:{bad}::"),
                format!("{lemma}%5:{good}:{good}:head:{bad}"),
            ];
            for k in keys {
                prop_assert!(refused(k.clone()), "{} was accepted", k);
            }
            let fine = format!("{lemma}%{t}:{good}:{good}::");
            prop_assert!(!refused(fine.clone()), "{} was refused", fine);
        }
    }
}
