//! Step 5 of the pipeline, `--pos-alternatives` (see the parent module's
//! docs): a target whose second WordNet category is nearly as likely under
//! the tagger is read as that category too ([`Token::alt`]), and once the
//! method has answered both readings [`resolve_alternatives`] keeps one.

use super::Pipeline;
use crate::corpus::{Document, Token};
use crate::text::choose_lemma;
use crate::wordnet::Pos;

impl Pipeline<'_> {
    /// Give target `tok` (word `word`, tagged `tag`) its reading as the
    /// second most probable WordNet category under the tagger's tag
    /// distribution `dist`, when that category has probability ≥ `min`
    /// and WordNet senses for the word ([`Token::alt`]); set both
    /// readings' [`Token::pos_prob`]. Proper names are left alone.
    pub(super) fn add_alternative(
        &self,
        tok: &mut Token,
        word: &str,
        tag: &str,
        dist: &[f32],
        min: f32,
    ) {
        if matches!(tag, "NNP" | "NNPS") || dist.is_empty() {
            return;
        }
        // Probability of n, v, a, r (other categories ignored).
        let mut cat = [0f32; 4];
        for (t, &p) in self.tagger.tagset().iter().zip(dist) {
            let pos = Pos::from_tag(t).or_else(|| self.function_tag_pos(t, word));
            if let Some(pos) = pos {
                cat[pos_index(pos)] += p;
            }
        }
        let Some(main) = tok.pos else { return };
        let alt = [Pos::Noun, Pos::Verb, Pos::Adj, Pos::Adv]
            .into_iter()
            .filter(|&p| p != main && cat[pos_index(p)] >= min)
            .max_by(|a, b| cat[pos_index(*a)].total_cmp(&cat[pos_index(*b)]));
        tok.pos_prob = Some(cat[pos_index(main)]);
        let Some(alt) = alt else { return };
        let Some(lemma) = choose_lemma(self.inv, word, alt) else {
            return;
        };
        if self.inv.senses(&lemma, alt).is_empty() {
            return;
        }
        tok.alt = Some(Box::new(Token {
            text: tok.text.clone(),
            lemma: Some(lemma),
            tag: tok.tag.clone(),
            pos: Some(alt),
            span: tok.span,
            pos_prob: Some(cat[pos_index(alt)]),
            ..Token::default()
        }));
    }
}

/// The index of a WordNet category in n, v, a, r order.
fn pos_index(p: Pos) -> usize {
    match p {
        Pos::Noun => 0,
        Pos::Verb => 1,
        Pos::Adj => 2,
        Pos::Adv => 3,
    }
}

/// Settle the part-of-speech alternatives of an analysed document
/// ([`Token::alt`], `--pos-alternatives`) once every target is decided:
/// `preds` are the decisions of `doc.targets()`, in order. For a token
/// with an alternative reading, each reading's answer is weighed by its
/// category's probability times the answer's calibrated probability
/// (`cal`); when the alternative wins, the token takes its lemma, POS and
/// answer. The alternatives are then removed, so the document and the
/// returned decisions are what they would be without them (one target,
/// one answer per token).
pub fn resolve_alternatives(
    doc: &mut Document,
    preds: Vec<Option<crate::disambig::Prediction>>,
    cal: &crate::disambig::Calibration,
) -> Vec<Option<crate::disambig::Prediction>> {
    use crate::corpus::Role;
    let targets = doc.targets();
    if !targets.iter().any(|t| t.role == Role::AltPos) {
        return preds;
    }
    let weight = |tok: &Token, p: &Option<crate::disambig::Prediction>| -> f64 {
        let share = f64::from(tok.pos_prob.unwrap_or(0.0));
        p.as_ref().map_or(0.0, |p| {
            share * cal.probabilities(p).senses.first().map_or(0.0, |s| s.1)
        })
    };
    let mut out: Vec<Option<crate::disambig::Prediction>> = Vec::with_capacity(preds.len());
    let mut main_at: Option<usize> = None;
    for (t, p) in targets.iter().zip(preds) {
        match t.role {
            Role::AltPos => {
                let tok = &mut doc.sentences[t.sentence].tokens[t.token];
                let Some(alt) = tok.alt.take() else { continue };
                let Some(k) = main_at else { continue };
                if weight(&alt, &p) > weight(tok, &out[k]) {
                    tok.lemma = alt.lemma;
                    tok.pos = alt.pos;
                    tok.pos_prob = alt.pos_prob;
                    out[k] = p;
                }
            }
            Role::Token => {
                main_at = Some(out.len());
                out.push(p);
            }
            Role::Head | Role::Part(_) => out.push(p),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sentence;

    fn reading(lemma: &str, pos: Pos, id: &str, prob: f32) -> Token {
        Token {
            text: "average".into(),
            lemma: Some(lemma.into()),
            pos: Some(pos),
            instance: Some(id.into()),
            pos_prob: Some(prob),
            ..Token::default()
        }
    }

    fn pred(key: &str, share: f64) -> Option<crate::disambig::Prediction> {
        use crate::disambig::{Decision, Prediction, Scale};
        let scores = vec![(key.to_string(), share), ("other".into(), 1.0 - share)];
        Some(
            Prediction::new(key, "test", Decision::Decided, share)
                .with_scores(scores, Scale::Share),
        )
    }

    /// Each reading's answer weighed by its category's probability times
    /// its sense's: the alternative wins only when the product is larger,
    /// and the document comes back without alternatives either way.
    #[test]
    fn alternatives_are_weighed_and_removed() {
        let cal = crate::disambig::Calibration::default();
        for (main_share, alt_share, alt_wins) in [(0.9, 0.9, false), (0.3, 0.95, true)] {
            let mut tok = reading("average", Pos::Adj, "d.s0.t0", 0.6);
            tok.alt = Some(Box::new(reading("average", Pos::Verb, "d.s0.t0.p", 0.4)));
            let mut doc = Document {
                id: "d".into(),
                sentences: vec![Sentence {
                    id: "d.s0".into(),
                    tokens: vec![tok, reading("line", Pos::Noun, "d.s0.t1", 1.0)],
                }],
            };
            assert_eq!(doc.targets().len(), 3);
            let preds = vec![
                pred("average%3", main_share),
                pred("average%2", alt_share),
                pred("line%1", 1.0),
            ];
            let out = resolve_alternatives(&mut doc, preds, &cal);
            assert_eq!(out.len(), 2);
            assert_eq!(doc.targets().len(), 2, "alternatives removed");
            let t = &doc.sentences[0].tokens[0];
            assert!(t.alt.is_none());
            let key = &out[0].as_ref().unwrap().key;
            if alt_wins {
                assert_eq!((t.pos, key.as_str()), (Some(Pos::Verb), "average%2"));
            } else {
                assert_eq!((t.pos, key.as_str()), (Some(Pos::Adj), "average%3"));
            }
            assert_eq!(out[1].as_ref().unwrap().key, "line%1");
        }
    }
}
