//! What a method can say about why it chose a sense (`wsd tag --explain`).
//!
//! One enum for every method, so output writers need not know the methods:
//! each variant is a kind of evidence (gloss overlap, a common ancestor in
//! the taxonomy, classifier features, a sense vector, nearest neighbours,
//! sense frequency), not a method. A method added later fills the variant
//! that fits, or adds one ([`Evidence`] is `non_exhaustive`).
//! [`Evidence::text`] is the one-line form of the TSV column; the JSON
//! form is the serde one, tagged by `kind`.

use serde::Serialize;

/// An item (a word, a feature, a sense) and its weight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Weighted {
    /// What.
    pub item: String,
    /// Its weight (meaning given by the variant).
    pub weight: f64,
}

impl Weighted {
    /// `item` with `weight`.
    pub fn new(item: impl Into<String>, weight: f64) -> Weighted {
        Weighted {
            item: item.into(),
            weight,
        }
    }
}

/// A training sentence behind a kNN answer: the id of the tagged instance
/// (the corpus's instance id, else `document/sentence/token`) and the
/// sentence, the instance's word marked `*so*`, cut to a window around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Exemplar {
    /// Instance id.
    pub id: String,
    /// The sentence (truncated, the target word between asterisks).
    pub text: String,
}

/// The sense a kNN answer was chosen over (the runner-up), with the
/// vector that scored it and that vector's training sentences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunnerUp {
    /// Its sense key.
    pub key: String,
    /// Which vector scored it (as [`Evidence::SenseVector`]'s `source`).
    pub source: String,
    /// Cosine with that context vector, if any.
    pub cosine: Option<f64>,
    /// Training sentences nearest that vector.
    pub sentences: Vec<Exemplar>,
}

/// The evidence behind one answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Evidence {
    /// Gloss overlap (lesk, lesk-ext): the context words whose stems are in
    /// the chosen sense's signature, each with the weight it added (1 for
    /// simplified Lesk; the relation weight for extended Lesk), and the
    /// first-sense prior term added to the overlap, if any.
    Overlap {
        /// Context words found in the signature, with their weight.
        words: Vec<Weighted>,
        /// `prior × ln P(sense)` (extended Lesk), else none.
        prior: Option<f64>,
    },
    /// Taxonomy similarity (sim-*): the context word whose sense is most
    /// similar to the chosen sense, the lowest common ancestor of the two
    /// synsets and the depths (NLTK's max depth: edges to the root by the
    /// longest hypernym path).
    Ancestor {
        /// The context word.
        word: String,
        /// Its sense that was most similar (NLTK name).
        word_sense: String,
        /// The similarity of that pair.
        similarity: f64,
        /// The lowest common ancestor (NLTK name), if the two share one.
        ancestor: Option<String>,
        /// Depth of the ancestor.
        ancestor_depth: Option<u32>,
        /// Depth of the chosen sense's synset.
        sense_depth: u32,
        /// Depth of the context word's synset.
        word_depth: u32,
    },
    /// A classifier's strongest features (nb): the features of the context
    /// with the largest log-likelihood ratio for the chosen sense against
    /// the runner-up (`against`), `w · (ln P(f|chosen) − ln P(f|other))`.
    Features {
        /// The runner-up sense, if the model knew another candidate.
        against: Option<String>,
        /// Features and their log weights, strongest first.
        features: Vec<Weighted>,
    },
    /// A sense vector (knn with centroids): which vector scored the chosen
    /// sense (`sense key`: the centroid of that lemma's sense; `synset`:
    /// the synset's centroid; `propagated` from hypernyms or the
    /// lexicographer file; `gloss` only), the cosines with the target's
    /// vector, the training sentences nearest that vector (models from
    /// format 3 on) and the runner-up, so that the answer can be read
    /// against the sentences it was chosen over.
    SenseVector {
        /// Which context vector scored the sense.
        source: String,
        /// Training examples behind that vector (0 when propagated).
        examples: u32,
        /// Cosine with the context vector, if any.
        cosine: Option<f64>,
        /// Cosine with the gloss vector, if any.
        gloss_cosine: Option<f64>,
        /// Training sentences nearest the vector (empty for older models
        /// and for propagated or gloss-only vectors).
        sentences: Vec<Exemplar>,
        /// The best-scored other candidate, if any.
        runner_up: Option<RunnerUp>,
    },
    /// Nearest training instances (knn with instances): their sense and
    /// cosine, nearest first, and their sentences when the model keeps them.
    Neighbours {
        /// (sense key, cosine).
        neighbours: Vec<Weighted>,
        /// The sentence of each neighbour, in the same order (empty for
        /// models that keep no sentences).
        sentences: Vec<Exemplar>,
    },
    /// Sense frequency (mfs, mfs-semcor): the chosen sense's count among
    /// the counts of all candidates.
    Frequency {
        /// The chosen sense's count.
        count: u64,
        /// All candidates' counts.
        total: u64,
        /// Where the counts come from (`WordNet tag counts`, `SemCor train`).
        source: String,
    },
}

fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn quoted(sentences: &[Exemplar]) -> String {
    sentences
        .iter()
        .map(|e| format!("[{}] \"{}\"", e.id, e.text))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn list(items: &[Weighted], signed: bool) -> String {
    items
        .iter()
        .map(|w| {
            if signed {
                format!("{} {:+.2}", w.item, w.weight)
            } else {
                format!("{} {}", w.item, num(w.weight))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl Evidence {
    /// One line for the TSV `evidence` column.
    pub fn text(&self) -> String {
        match self {
            Evidence::Overlap { words, prior } => {
                let mut s = if words.is_empty() {
                    "overlap: none".to_string()
                } else {
                    format!("overlap: {}", list(words, false))
                };
                if let Some(p) = prior {
                    s.push_str(&format!("; prior {}", num(*p)));
                }
                s
            }
            Evidence::Ancestor {
                word,
                word_sense,
                similarity,
                ancestor,
                ancestor_depth,
                sense_depth,
                word_depth,
            } => {
                let anc = match (ancestor, ancestor_depth) {
                    (Some(a), Some(d)) => format!("common ancestor {a} (depth {d})"),
                    (Some(a), None) => format!("common ancestor {a}"),
                    _ => "no common ancestor".to_string(),
                };
                format!(
                    "closest context word {word} ({word_sense}, depth {word_depth}), similarity {}; {anc}; sense depth {sense_depth}",
                    num(*similarity)
                )
            }
            Evidence::Features { against, features } => {
                let vs = against
                    .as_ref()
                    .map(|a| format!(" vs {a}"))
                    .unwrap_or_default();
                if features.is_empty() {
                    format!("features{vs}: none in the model (prior only)")
                } else {
                    format!("features{vs}: {}", list(features, true))
                }
            }
            Evidence::SenseVector {
                source,
                examples,
                cosine,
                gloss_cosine,
                sentences,
                runner_up,
            } => {
                let mut s = format!("vector: {source}");
                if *examples > 0 {
                    s.push_str(&format!(" ({examples} examples)"));
                }
                if let Some(c) = cosine {
                    s.push_str(&format!(", cosine {}", num(*c)));
                }
                if let Some(g) = gloss_cosine {
                    s.push_str(&format!(", gloss cosine {}", num(*g)));
                }
                if !sentences.is_empty() {
                    s.push_str(&format!("; like {}", quoted(sentences)));
                }
                if let Some(r) = runner_up {
                    s.push_str(&format!("; runner-up {} ({}", r.key, r.source));
                    if let Some(c) = r.cosine {
                        s.push_str(&format!(", cosine {}", num(c)));
                    }
                    s.push(')');
                    if !r.sentences.is_empty() {
                        s.push_str(&format!(" like {}", quoted(&r.sentences)));
                    }
                }
                s
            }
            Evidence::Neighbours {
                neighbours,
                sentences,
            } => {
                let mut s = format!("nearest instances: {}", list(neighbours, false));
                if !sentences.is_empty() {
                    s.push_str(&format!("; sentences {}", quoted(sentences)));
                }
                s
            }
            Evidence::Frequency {
                count,
                total,
                source,
            } => format!("{source}: {count} of {total}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_name_the_evidence() {
        let e = Evidence::Overlap {
            words: vec![Weighted::new("river", 1.0), Weighted::new("water", 0.5)],
            prior: Some(-0.25),
        };
        assert_eq!(e.text(), "overlap: river 1, water 0.5; prior -0.25");
        let j = serde_json::to_value(&e).unwrap();
        assert_eq!(j["kind"], "overlap");
        assert_eq!(j["words"][1]["item"], "water");
        let f = Evidence::Features {
            against: Some("bass%1:13:02::".into()),
            features: vec![Weighted::new("window:jazz", 2.5)],
        };
        assert_eq!(f.text(), "features vs bass%1:13:02::: window:jazz +2.50");
    }

    #[test]
    fn sense_vectors_quote_their_sentences_and_the_runner_up() {
        let ex = |id: &str, t: &str| Exemplar {
            id: id.into(),
            text: t.into(),
        };
        let e = Evidence::SenseVector {
            source: "sense key".into(),
            examples: 12,
            cosine: Some(0.61),
            gloss_cosine: None,
            sentences: vec![ex("d1.s2.t3", "at the *bank*")],
            runner_up: Some(RunnerUp {
                key: "bank%1:17:01::".into(),
                source: "synset".into(),
                cosine: Some(0.5),
                sentences: vec![ex("d4.s1.t2", "the river *bank*")],
            }),
        };
        assert_eq!(
            e.text(),
            "vector: sense key (12 examples), cosine 0.61; like [d1.s2.t3] \"at the *bank*\"; runner-up bank%1:17:01:: (synset, cosine 0.5) like [d4.s1.t2] \"the river *bank*\""
        );
        let j = serde_json::to_value(&e).unwrap();
        assert_eq!(j["sentences"][0]["id"], "d1.s2.t3");
        assert_eq!(j["runner_up"]["sentences"][0]["text"], "the river *bank*");
        let n = Evidence::Neighbours {
            neighbours: vec![Weighted::new("bank%1:14:00::", 0.9)],
            sentences: vec![ex("d1.s2.t3", "at the *bank*")],
        };
        assert_eq!(
            n.text(),
            "nearest instances: bank%1:14:00:: 0.9; sentences [d1.s2.t3] \"at the *bank*\""
        );
    }
}
