//! Parts of speech as WordNet knows them.
//!
//! WordNet has four lexical categories, each with its own `index.*` and
//! `data.*` file ([`Pos`]), and five synset types ([`SynsetType`]): adjective
//! satellites (`s`) live in `data.adj` beside head adjectives (`a`).

use std::fmt;
use std::str::FromStr;

/// A WordNet lexical category (one `index.*`/`data.*` file pair).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Pos {
    /// Nouns (`n`).
    Noun,
    /// Verbs (`v`).
    Verb,
    /// Adjectives, heads and satellites (`a`, `s`).
    Adj,
    /// Adverbs (`r`).
    Adv,
}

impl Pos {
    /// All four, in WordNet's file order.
    pub const ALL: [Pos; 4] = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv];

    /// The categories a `--pos` option selects: `pos` alone, or all four
    /// (in [`Pos::ALL`]'s order) for `None`.
    pub fn selected(pos: Option<Pos>) -> impl Iterator<Item = Pos> {
        Pos::ALL
            .into_iter()
            .filter(move |&p| pos.is_none_or(|want| want == p))
    }

    /// The position in [`Pos::ALL`] (0 noun, 1 verb, 2 adjective, 3
    /// adverb): the index of per-category tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter code (`n`, `v`, `a`, `r`).
    pub fn letter(self) -> char {
        match self {
            Pos::Noun => 'n',
            Pos::Verb => 'v',
            Pos::Adj => 'a',
            Pos::Adv => 'r',
        }
    }

    /// The category's English name (`noun`, `verb`, `adjective`, `adverb`),
    /// for messages and reports.
    pub fn name(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adj => "adjective",
            Pos::Adv => "adverb",
        }
    }

    /// The file suffix (`noun`, `verb`, `adj`, `adv`).
    pub fn file_suffix(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adj => "adj",
            Pos::Adv => "adv",
        }
    }

    /// The ss_type digit used in sense keys for this category's head
    /// synsets (1 noun, 2 verb, 3 adjective, 4 adverb; satellites are 5).
    pub fn ss_type_number(self) -> u8 {
        match self {
            Pos::Noun => 1,
            Pos::Verb => 2,
            Pos::Adj => 3,
            Pos::Adv => 4,
        }
    }

    /// Parse a one-letter code; `s` (satellite) maps to [`Pos::Adj`].
    pub fn from_letter(c: char) -> Option<Pos> {
        match c {
            'n' => Some(Pos::Noun),
            'v' => Some(Pos::Verb),
            'a' | 's' => Some(Pos::Adj),
            'r' => Some(Pos::Adv),
            _ => None,
        }
    }

    /// Map a corpus POS tag to WordNet's category: Penn Treebank tags
    /// (`NN`, `VBD`, `JJ`, `RB` …), universal tags (`NOUN`, `VERB`, `ADJ`,
    /// `ADV`) and WordNet letters. Function-word tags give `None`.
    pub fn from_tag(tag: &str) -> Option<Pos> {
        match tag {
            "NOUN" | "n" | "N" => return Some(Pos::Noun),
            "VERB" | "v" | "V" => return Some(Pos::Verb),
            "ADJ" | "a" | "s" | "A" | "J" => return Some(Pos::Adj),
            "ADV" | "r" | "R" => return Some(Pos::Adv),
            _ => {}
        }
        if tag.starts_with("NN") {
            Some(Pos::Noun)
        } else if tag.starts_with("VB") || tag == "MD" {
            if tag == "MD" {
                None
            } else {
                Some(Pos::Verb)
            }
        } else if tag.starts_with("JJ") {
            Some(Pos::Adj)
        } else if tag.starts_with("RB") || tag == "WRB" {
            if tag == "WRB" {
                None
            } else {
                Some(Pos::Adv)
            }
        } else {
            None
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Pos {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "n" | "noun" => Ok(Pos::Noun),
            "v" | "verb" => Ok(Pos::Verb),
            "a" | "s" | "adj" | "adjective" => Ok(Pos::Adj),
            "r" | "adv" | "adverb" => Ok(Pos::Adv),
            _ => Err(format!("unknown part of speech {s:?} (use n, v, a or r)")),
        }
    }
}

/// The synset type of a `data.*` record (`n v a s r`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SynsetType {
    /// Noun synset.
    Noun,
    /// Verb synset.
    Verb,
    /// Head adjective synset.
    Adj,
    /// Adjective satellite synset.
    AdjSatellite,
    /// Adverb synset.
    Adv,
}

impl SynsetType {
    /// Parse the one-letter `ss_type` field.
    pub fn from_letter(c: char) -> Option<SynsetType> {
        match c {
            'n' => Some(SynsetType::Noun),
            'v' => Some(SynsetType::Verb),
            'a' => Some(SynsetType::Adj),
            's' => Some(SynsetType::AdjSatellite),
            'r' => Some(SynsetType::Adv),
            _ => None,
        }
    }

    /// The one-letter code, `s` for satellites.
    pub fn letter(self) -> char {
        match self {
            SynsetType::Noun => 'n',
            SynsetType::Verb => 'v',
            SynsetType::Adj => 'a',
            SynsetType::AdjSatellite => 's',
            SynsetType::Adv => 'r',
        }
    }

    /// The sense-key ss_type number (1–5).
    pub fn number(self) -> u8 {
        match self {
            SynsetType::Noun => 1,
            SynsetType::Verb => 2,
            SynsetType::Adj => 3,
            SynsetType::Adv => 4,
            SynsetType::AdjSatellite => 5,
        }
    }

    /// The lexical category this type belongs to.
    pub fn pos(self) -> Pos {
        match self {
            SynsetType::Noun => Pos::Noun,
            SynsetType::Verb => Pos::Verb,
            SynsetType::Adj | SynsetType::AdjSatellite => Pos::Adj,
            SynsetType::Adv => Pos::Adv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penn_and_universal_tags_map_to_wordnet() {
        assert_eq!(Pos::from_tag("NNS"), Some(Pos::Noun));
        assert_eq!(Pos::from_tag("VBD"), Some(Pos::Verb));
        assert_eq!(Pos::from_tag("JJR"), Some(Pos::Adj));
        assert_eq!(Pos::from_tag("RB"), Some(Pos::Adv));
        assert_eq!(Pos::from_tag("ADJ"), Some(Pos::Adj));
        assert_eq!(Pos::from_tag("DT"), None);
        assert_eq!(Pos::from_tag("MD"), None);
    }
}
