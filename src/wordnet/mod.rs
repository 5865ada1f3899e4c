//! The WordNet 3.0 sense inventory (work in progress in the foundation branch).

mod pos;
pub use pos::{Pos, SynsetType};

/// A synset identifier: lexical category + byte offset in its `data.*` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SynsetId {
    /// The data file (satellites are [`Pos::Adj`]).
    pub pos: Pos,
    /// Byte offset of the record in `data.<pos>`.
    pub offset: u32,
}

/// One sense of a lemma: a (lemma, synset) pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Sense {
    /// The sense key (`bank%1:14:00::`).
    pub key: String,
    /// The synset.
    pub synset: SynsetId,
    /// Sense number of the lemma (1 = first, most frequent).
    pub number: u16,
    /// SemCor tag count from `index.sense`.
    pub tag_count: u32,
}

/// The loaded inventory.
pub struct Inventory {}

impl Inventory {
    /// Senses of `lemma` with `pos`, in WordNet order.
    pub fn senses(&self, _lemma: &str, _pos: Pos) -> Vec<Sense> {
        unimplemented!()
    }
}
