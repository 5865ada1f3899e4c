//! Pointer (relation) types of WordNet's `data.*` files, as listed in
//! wninput(5WN). Lexical pointers carry source/target word numbers; semantic
//! pointers have both set to 0.

use super::SynsetId;

/// A relation between synsets (semantic) or between words (lexical).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum PointerKind {
    Antonym,
    Hypernym,
    InstanceHypernym,
    Hyponym,
    InstanceHyponym,
    MemberHolonym,
    SubstanceHolonym,
    PartHolonym,
    MemberMeronym,
    SubstanceMeronym,
    PartMeronym,
    Attribute,
    DerivationallyRelated,
    DomainTopic,
    MemberOfDomainTopic,
    DomainRegion,
    MemberOfDomainRegion,
    DomainUsage,
    MemberOfDomainUsage,
    Entailment,
    Cause,
    AlsoSee,
    VerbGroup,
    SimilarTo,
    Participle,
    /// `\`: pertainym (adjectives) or "derived from adjective" (adverbs).
    Pertainym,
}

impl PointerKind {
    /// Parse a pointer symbol (`@`, `~i`, `#m`, `;c` …).
    pub fn from_symbol(s: &str) -> Option<PointerKind> {
        use PointerKind::*;
        Some(match s {
            "!" => Antonym,
            "@" => Hypernym,
            "@i" => InstanceHypernym,
            "~" => Hyponym,
            "~i" => InstanceHyponym,
            "#m" => MemberHolonym,
            "#s" => SubstanceHolonym,
            "#p" => PartHolonym,
            "%m" => MemberMeronym,
            "%s" => SubstanceMeronym,
            "%p" => PartMeronym,
            "=" => Attribute,
            "+" => DerivationallyRelated,
            ";c" => DomainTopic,
            "-c" => MemberOfDomainTopic,
            ";r" => DomainRegion,
            "-r" => MemberOfDomainRegion,
            ";u" => DomainUsage,
            "-u" => MemberOfDomainUsage,
            "*" => Entailment,
            ">" => Cause,
            "^" => AlsoSee,
            "$" => VerbGroup,
            "&" => SimilarTo,
            "<" => Participle,
            "\\" => Pertainym,
            _ => return None,
        })
    }

    /// The symbol as written in the dict files.
    pub fn symbol(self) -> &'static str {
        use PointerKind::*;
        match self {
            Antonym => "!",
            Hypernym => "@",
            InstanceHypernym => "@i",
            Hyponym => "~",
            InstanceHyponym => "~i",
            MemberHolonym => "#m",
            SubstanceHolonym => "#s",
            PartHolonym => "#p",
            MemberMeronym => "%m",
            SubstanceMeronym => "%s",
            PartMeronym => "%p",
            Attribute => "=",
            DerivationallyRelated => "+",
            DomainTopic => ";c",
            MemberOfDomainTopic => "-c",
            DomainRegion => ";r",
            MemberOfDomainRegion => "-r",
            DomainUsage => ";u",
            MemberOfDomainUsage => "-u",
            Entailment => "*",
            Cause => ">",
            AlsoSee => "^",
            VerbGroup => "$",
            SimilarTo => "&",
            Participle => "<",
            Pertainym => "\\",
        }
    }

    /// A readable name (`hypernym`, `part_meronym` …) used in output.
    pub fn name(self) -> &'static str {
        use PointerKind::*;
        match self {
            Antonym => "antonym",
            Hypernym => "hypernym",
            InstanceHypernym => "instance_hypernym",
            Hyponym => "hyponym",
            InstanceHyponym => "instance_hyponym",
            MemberHolonym => "member_holonym",
            SubstanceHolonym => "substance_holonym",
            PartHolonym => "part_holonym",
            MemberMeronym => "member_meronym",
            SubstanceMeronym => "substance_meronym",
            PartMeronym => "part_meronym",
            Attribute => "attribute",
            DerivationallyRelated => "derivationally_related",
            DomainTopic => "domain_topic",
            MemberOfDomainTopic => "member_of_domain_topic",
            DomainRegion => "domain_region",
            MemberOfDomainRegion => "member_of_domain_region",
            DomainUsage => "domain_usage",
            MemberOfDomainUsage => "member_of_domain_usage",
            Entailment => "entailment",
            Cause => "cause",
            AlsoSee => "also_see",
            VerbGroup => "verb_group",
            SimilarTo => "similar_to",
            Participle => "participle",
            Pertainym => "pertainym",
        }
    }
}

/// One pointer of a synset record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The relation.
    pub kind: PointerKind,
    /// The target synset.
    pub target: SynsetId,
    /// Source word number (1-based) for lexical pointers, 0 for semantic ones.
    pub source_word: u8,
    /// Target word number (1-based) for lexical pointers, 0 for semantic ones.
    pub target_word: u8,
}

impl Pointer {
    /// True when the pointer relates whole synsets rather than two words.
    pub fn is_semantic(&self) -> bool {
        self.source_word == 0 && self.target_word == 0
    }
}
