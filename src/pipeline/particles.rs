//! Particle verbs split by their object: `square it up`, `left it out`,
//! `cut Cuba off`, `gave them away`.
//!
//! WordNet lists such verbs as collocations (`square_up`, `leave_out`),
//! and SemCor's annotators tag the verb with them when the object stands
//! between the verb and its particle (the verb `square` gets
//! `square_up`, the particle is left untagged). In SemCor 575 one-word
//! verbs carry a collocation's lemma, most of them particle verbs, and
//! 101 gold instances of its test split whose lemma is a verb
//! collocation were read as the bare verb by the multiword matcher,
//! which joins adjacent words only. SemEval-2007 tags
//! them so too (`rolling it up` → `roll_up`, `pull us out` → `pull_out`).
//!
//! [`split_particle`] finds the particle: after a verb, an object of one
//! to four words — a pronoun, or a noun phrase of determiners,
//! possessives, numbers, adjectives and nouns with at least one noun or
//! pronoun — then a particle word the tagger calls a particle, adverb or
//! preposition, which is not itself followed by a noun phrase (`put the
//! money in the bank` is a preposition's object, not `put_in`). The
//! caller joins the verb's lemma and the particle when SemCor's train
//! split tagged that particle verb's split uses so, in most of them and
//! at least twice ([`SplitParticles`], `src/pipeline/split_particles.tsv`):
//! joining every split use WordNet has a particle verb for made more
//! wrong lemmas than it mended (`put it out`, `found them out`, `get
//! it on` are the bare verbs more often than not).

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

/// Particle verbs whose split uses SemCor's annotators tag as the particle
/// verb (learned on its train split, [`crate::pipeline::learn::learn_split_particles`]):
/// particle verb → (joined, seen).
#[derive(Clone, Debug, Default)]
pub struct SplitParticles {
    counts: FxHashMap<Box<str>, (u32, u32)>,
}

const SHIPPED: &str = include_str!("split_particles.tsv");

impl SplitParticles {
    /// A particle verb is joined across its object when its split uses
    /// were tagged as it at least this often …
    pub const MIN_JOINED: u32 = 2;

    /// The shipped table, parsed once.
    pub fn shipped() -> &'static SplitParticles {
        static T: OnceLock<SplitParticles> = OnceLock::new();
        T.get_or_init(|| {
            SplitParticles::parse(SHIPPED).expect("src/pipeline/split_particles.tsv is well formed")
        })
    }

    /// Read `particle_verb<TAB>joined<TAB>seen` lines (`#` comments); an
    /// error names the line.
    pub fn parse(text: &str) -> Result<SplitParticles, String> {
        let mut counts = FxHashMap::default();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let num = |k: usize| f.get(k).and_then(|x| x.parse::<u32>().ok());
            match (f.first(), num(1), num(2)) {
                (Some(v), Some(j), Some(s)) if !v.is_empty() && j <= s => {
                    counts.insert((*v).into(), (j, s));
                }
                _ => {
                    return Err(format!(
                        "split_particles.tsv:{}: expected particle verb, joined, seen",
                        n + 1
                    ))
                }
            }
        }
        Ok(SplitParticles { counts })
    }

    /// Join `particle_verb` across its object: tagged so in at least
    /// [`Self::MIN_JOINED`] and in more than half of its split uses.
    pub fn joins(&self, particle_verb: &str) -> bool {
        self.counts
            .get(particle_verb)
            .is_some_and(|&(j, s)| j >= Self::MIN_JOINED && 2 * j > s)
    }
}

/// The particle words of English particle verbs.
const PARTICLES: &[&str] = &[
    "up", "out", "off", "away", "back", "down", "in", "on", "over", "around", "about", "apart",
    "aside", "together", "through", "along", "forward", "forth", "by",
];

/// Tags of the words an object noun phrase between verb and particle is
/// made of.
fn object_word(tag: &str) -> bool {
    matches!(
        tag,
        "PRP" | "PRP$" | "DT" | "JJ" | "JJR" | "JJS" | "NN" | "NNS" | "NNP" | "NNPS" | "CD" | "POS"
    )
}

/// A noun or pronoun: the head an object needs.
fn object_head(tag: &str) -> bool {
    matches!(tag, "PRP" | "NN" | "NNS" | "NNP" | "NNPS")
}

/// A word that begins a noun phrase (after a preposition).
fn starts_noun_phrase(tag: &str) -> bool {
    matches!(
        tag,
        "DT" | "PRP$" | "CD" | "JJ" | "JJR" | "JJS" | "NN" | "NNS" | "NNP" | "NNPS" | "PRP"
    )
}

/// The index of the particle of the verb at `i` split from it by its
/// object (see the module docs), if there is one.
pub fn split_particle<W: AsRef<str>, T: AsRef<str>>(
    words: &[W],
    tags: &[T],
    i: usize,
) -> Option<usize> {
    let mut head = false;
    for k in i + 1..(i + 6).min(words.len()) {
        let (w, t) = (words[k].as_ref(), tags[k].as_ref());
        if k > i + 1
            && head
            && matches!(t, "RP" | "RB" | "IN")
            && PARTICLES.iter().any(|p| w.eq_ignore_ascii_case(p))
        {
            let next = tags.get(k + 1).map(AsRef::as_ref);
            return (!next.is_some_and(starts_noun_phrase)).then_some(k);
        }
        if !object_word(t) {
            return None;
        }
        head |= object_head(t);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(sentence: &str, tags: &str, verb: usize) -> Option<usize> {
        let w: Vec<&str> = sentence.split(' ').collect();
        let t: Vec<&str> = tags.split(' ').collect();
        split_particle(&w, &t, verb)
    }

    #[test]
    fn the_table_joins_what_annotators_mostly_join() {
        let t =
            SplitParticles::parse("# c\npick_up\t13\t14\nget_out\t4\t12\nfix_up\t1\t1\n").unwrap();
        assert!(t.joins("pick_up"));
        assert!(!t.joins("get_out"), "4 of 12");
        assert!(!t.joins("fix_up"), "once");
        assert!(!t.joins("put_out"), "unseen");
        let e = SplitParticles::parse("pick_up\t13\n").unwrap_err();
        assert!(e.contains(":1:"), "{e}");
        assert!(
            SplitParticles::parse("a_b\t3\t2\n").is_err(),
            "joined > seen"
        );
        assert!(SplitParticles::shipped().joins("pick_up"));
    }

    #[test]
    fn the_object_stands_between_verb_and_particle() {
        assert_eq!(find("I square it up and", "PRP VB PRP RP CC", 1), Some(3));
        assert_eq!(
            find("left it out of their", "VBD PRP RP IN PRP$", 0),
            Some(2)
        );
        assert_eq!(
            find("cut the old man off .", "VB DT JJ NN RP .", 0),
            Some(4)
        );
        // a preposition with its own object
        assert_eq!(
            find("put the money in the bank", "VB DT NN IN DT NN", 0),
            None
        );
        // no object between
        assert_eq!(find("went up the hill", "VBD RP DT NN", 0), None);
        // an object without a noun
        assert_eq!(find("took the up", "VBD DT RP", 0), None);
        // a verb ends the object
        assert_eq!(find("saw him go out", "VBD PRP VB RP", 0), None);
        // too far
        assert_eq!(
            find(
                "took the very big old red box out",
                "VBD DT RB JJ JJ JJ NN RP",
                0
            ),
            None
        );
    }
}
