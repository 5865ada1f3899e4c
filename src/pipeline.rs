//! Raw text to a [`Document`]: tokenise, split sentences, tag parts of
//! speech, join multiword expressions, lemmatise with morphy, and mark the
//! targets to disambiguate. This is what `wsd tag` runs on plain text, and
//! what `wsd eval --raw` runs on an evaluation set rebuilt as plain text to
//! measure what automatic preprocessing costs.
//!
//! Per sentence (steps 1–1c for all sentences of the text first, so the
//! encoder of step 1c reads them in one batch), on the models' forms of
//! its words ([`truecase::model_words`]: typeset quotes as SemCor's ASCII
//! ones, a word with diacritics WordNet lacks in its ASCII spelling
//! ([`accents`]: `Zürich` → `Zurich`), a sentence in capitals or title
//! case recased); a word in another script than Latin (`Москве`) is no
//! name in step 2, and stays untagged:
//!
//! 1. POS tags from the tagger; a word tagged `CD`/`DT`/`PDT` that WordNet
//!    has as an adjective (`one`, `all`, `no`) is an adjective, `EX` `there`
//!    an adverb ([`Pipeline`]'s function-tag rule), as SemCor tags them.
//!    1b. A word WordNet has in two categories or more gets the category
//!    of [`crate::pos::category`]'s instance-level model (learned on the
//!    gold instances of SemCor's train split: the category follows the
//!    sense annotators chose, `American` an adjective, `detergent` a noun),
//!    then a lemma of that category, not a name's (`--no-pos-categories`
//!    turns it off). `mfs --raw` wrong-POS instances: SemCor test split
//!    1,361 → 992 of 44,867, SemEval-2007 12 → 12 of 455; F1 66.8 → 67.5
//!    and 52.5 → 52.9.
//!    A word tagged `IN` that WordNet has as an adverb, with punctuation or
//!    the sentence's end after it (no object: `done this before''`), is an
//!    adverb (`stranded_adverbs`, with the model; `mfs --raw` on SemCor's test split:
//!    missed targets 324 → 312).
//!    1c. With knn or ens (which run the encoder anyway), or with
//!    `--pos-probe`, the encoder overrules such a word's category when its
//!    vector of the word gives the chosen category less than 10 %
//!    ([`crate::pos::probe`], fitted on the same instances); with knn or
//!    ens the targets keep their vectors ([`Token::vector`]) so the
//!    method does not encode the sentences again. `--raw` wrong-POS
//!    instances: SemCor test split 1,005 → 869, F1 +0.2 for every
//!    method; SemEval-2007 8 → 5.
//! 2. One lemma per word: [`crate::text::choose_lemma`] (surface form for
//!    adjectives and adverbs when WordNet has it, else the most tagged base
//!    form; Penn clitics `'s` → `be`); a name SemCor's annotators tag as a
//!    person, group or location gets that lemma ([`known_name`]), and
//!    another capitalised proper noun `person`, `group`, `location` or its
//!    WordNet lemma as [`crate::text::names::NameModel`] decides from its
//!    context, WordNet entry and earlier occurrences in the document
//!    ([`name_or_wordnet`]; measured with `mfs --raw` on SemCor's test
//!    split, the lemma of gold `person`/`group`/`location` instances
//!    right 62.1% → 80.4%, F1 66.8 → 67.3), but a capitalised word
//!    WordNet has as an adjective and not a noun, before a common noun, is
//!    that adjective (`the Southern states`, `proper_adjectives`); an
//!    acronym WordNet does not know is a `group` ([`acronym_name`]: `ADC`,
//!    `B.B.C.`; missed targets 312 → 308 on the test split, 803 → 764 on
//!    the train split). A US state's abbreviation after a place
//!    (`Peoria, Ill.`, `Kansas City, Mo.`) is the state, not the word its
//!    letters spell (`ill`, `mo`); unambiguous ones (`Calif.`, `N.Y.`)
//!    anywhere ([`crate::text::abbreviations`]).
//! 3. Multiwords joined as [`crate::text::MweMatcher`]'s mode says (learned
//!    on SemCor's evidence by default), and multiword proper names as one
//!    `person`/`group`/`location` unit ([`with_name_units`]; names linked
//!    by `of`/`for` after a common noun too, `Office of Business
//!    Economics`: `mfs --raw` multiword mismatches on SemCor's test split
//!    396 → 383, train split 1,221 → 1,186). With `--targets LEMMAS`, a
//!    collocation containing a requested lemma is not joined unless it is
//!    requested itself.
//!    Each joined unit keeps its head word as a token of its own
//!    ([`Token::head`]: the verb of a verb unit, else the last word; not
//!    for names), a *secondary target* when it would be a target alone
//!    (id `….h`), so that both conventions are answered: SemCor joins a
//!    verb and its particle (`talk_about`, `come_out`) and noun compounds
//!    WordNet lists, SemEval-2007 tags the verb or noun alone. Scoring
//!    (`wsd eval --raw`) answers each gold instance from the target with exactly its
//!    span, else the nearest overlapping one, so the extra targets never
//!    count against precision: a gold instance gets one answer, and
//!    targets on no gold instance are not scored (only counted, as
//!    `extra_targets`). Measured with `mfs` (`--no-heads` against the
//!    default): SemEval-2007 50.3 → 52.8 F1, SemCor train split 70.7 →
//!    70.8.
//!    The unit's other words keep tokens of their own too
//!    ([`Token::parts`], ids `….wK`), a secondary target each when it would
//!    be one alone (no proper nouns): SemCor's annotators keep many of the
//!    adjective–noun and noun–noun collocations WordNet lists apart
//!    (`vocational education`, `school district`), and a join lost the
//!    modifier's instance. `wsd eval --raw` on SemCor's test split:
//!    multiword mismatches 604 → 407, F1 +0.30 to +0.33 for every method
//!    (604 → 396 and +0.32 to +0.35 with the evidence refitted for it, see
//!    [`crate::text::mwe`]); SemEval-2007 unchanged.
//! 4. Targets: [`TargetSelection`]; the default follows
//!    [`crate::text::TargetTable`], learned from what SemCor's annotators tag
//!    (auxiliaries told apart by [`auxiliary_flags`]).
//!
//! 5. Optionally (`--pos-alternatives P`, off by default), a target whose
//!    second most probable WordNet category under the tagger
//!    ([`PosTagger::tag_with_probabilities`] at [`POS_TEMPERATURE`]) has
//!    probability ≥ P is read as that category too ([`Token::alt`]); the
//!    method answers both readings, and [`resolve_alternatives`] keeps the
//!    one with the larger category probability × calibrated sense
//!    probability. Measured `--raw` (F1, off → P = 0.2 / 0.35):
//!    SemEval-2007 mfs 52.8 → 52.5 / 52.5, lesk-ext 54.5 → 54.3 / 54.3,
//!    nb,mfs 57.6 → 57.4 / 57.4; SemCor train split mfs 70.8 → 70.8,
//!    lesk-ext 71.3 → 71.2, nb,mfs 86.0 → 86.0. It moves answers towards
//!    the category with fewer senses (a single-sense adjective reading of
//!    `connected` outweighs a verb's first sense) more often than it
//!    repairs a tagging error, hence off.
//!
//! [`align_raw`] classifies each gold instance of an annotated document
//! against the pipeline's output (matched, missed target, wrong POS, wrong
//! lemma, multiword), and [`learn`] regenerates the shipped tables.

use rustc_hash::FxHashSet;

use crate::corpus::{Document, Sentence, Token};
use crate::pos::category::CategoryModel;
use crate::pos::PosTagger;
use crate::text::abbreviations::state_abbreviation;
use crate::text::names::{remember_cues, NameMemory};
use crate::text::targets::{is_auxiliary, is_existential, AUXILIARY_VERBS};
use crate::text::{choose_lemma, split_sentences, MweMatch, MweMatcher, TargetTable};
use crate::wordnet::{Inventory, Pos};

pub mod accents;
pub mod align;
mod alternatives;
pub mod hyphens;
pub mod learn;
mod names;
pub mod particles;
mod probe;
mod rules;
pub mod truecase;

use rules::{function_tag_pos, proper_adjectives, sole_other_category, stranded_adverbs};
pub use rules::{repair_acronyms, tag_category};

pub use align::{align_raw, RawAlignment, RawBreakdown, RawOutcome};
pub use alternatives::resolve_alternatives;
pub use names::{
    acronym_name, common_only_name, known_name, name_lemma, name_or_wordnet, remember_names,
    unit_lemma, with_name_units,
};
use probe::{set_sentence_vector, token_vector};
pub use probe::{PosProbe, ProbeChoice};

/// Which tokens become targets.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetSelection {
    /// The words SemCor's annotators would tag, learned from its train
    /// split ([`crate::text::targets`]): content words with WordNet senses,
    /// `not`, `only`, `other` and main-verb `be`/`have`/`do` included,
    /// other stop words and auxiliaries left out — the default.
    Content,
    /// Every noun, verb, adjective or adverb with WordNet senses, stop
    /// words included (`be`, `have`): all-words runs.
    All,
    /// Only these lemmas (lexical-sample runs).
    Lemmas(FxHashSet<String>),
    /// As [`TargetSelection::Content`] but by this table instead of the
    /// shipped one: the held-out checks of [`learn`] judge a table learned
    /// on some training documents on the others.
    Table(std::sync::Arc<TargetTable>),
}

impl std::str::FromStr for TargetSelection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "content" => Ok(TargetSelection::Content),
            "all" => Ok(TargetSelection::All),
            "" => Err("empty --targets".to_string()),
            list => Ok(TargetSelection::Lemmas(
                list.split(',')
                    .map(|l| l.trim().to_lowercase().replace(' ', "_"))
                    .filter(|l| !l.is_empty())
                    .collect(),
            )),
        }
    }
}

/// The text pipeline and its resources.
pub struct Pipeline<'a> {
    /// The inventory (morphy, senses).
    pub inv: &'a Inventory,
    /// The POS tagger.
    pub tagger: &'a PosTagger,
    /// The multiword matcher, or `None` for `--no-mwe`.
    pub mwe: Option<&'a MweMatcher>,
    /// Which tokens become targets.
    pub targets: TargetSelection,
    /// Give the head word of each joined unit a secondary target
    /// ([`Token::head`]; `--no-heads` turns it off).
    pub heads: bool,
    /// Weigh a second part of speech (`--pos-alternatives P`): a target
    /// word whose second most probable WordNet category (by the tagger's
    /// probabilities) has at least this probability is also read as
    /// that category ([`Token::alt`]); `None`: off.
    pub pos_alternatives: Option<f32>,
    /// Revise the category of targets WordNet has in several categories
    /// with this instance-level model ([`crate::pos::category`], step 1b;
    /// `--no-pos-categories` turns it off); `None`: the tagger's category.
    pub pos_categories: Option<&'a CategoryModel>,
    /// Let the encoder overrule the category of such targets
    /// ([`crate::pos::probe`], `--pos-probe`); `None`: off.
    pub pos_probe: Option<PosProbe<'a>>,
}

/// One sentence after steps 1–1c: its words, the tagger's tags (and
/// distributions, for `--pos-alternatives`), the categories (`tagged`:
/// the tagger's; `poses`: after the category model and the probe; a word
/// is *revised* where they differ).
struct SentenceCategories<'w> {
    /// With [`PosProbe::keep_vectors`]: the encoder's vector (last layer)
    /// of each word with a category, for the targets to carry.
    vectors: Vec<Option<std::sync::Arc<[f32]>>>,
    /// The collocations and names of the sentence (step 3's candidates).
    matches: Vec<MweMatch>,
    words: Vec<&'w str>,
    tags: Vec<String>,
    dists: Vec<Vec<f32>>,
    poses: Vec<Option<Pos>>,
    tagged: Vec<Option<Pos>>,
}

/// The soft-max temperature of the tagger's probabilities for
/// [`Pipeline::pos_alternatives`]: chosen on held-out SemCor training
/// documents (`semcor_tune` with `$WSD_POS_TEMPS`), where it minimises the
/// negative log-likelihood of the gold WordNet category (0.486 at 1,
/// 0.252 at 3, 0.137 at 8, 0.140 at 12, 0.239 at 20) and the second
/// category's probability matches how often it is the gold one (0.345 →
/// 0.357 of the time at 12, 0.248 → 0.302 at 8).
pub const POS_TEMPERATURE: f32 = 10.0;

impl<'a> Pipeline<'a> {
    /// The pipeline `wsd tag` runs by default: content-word targets
    /// ([`TargetSelection::Content`]), multiwords joined by `mwe` (`None`:
    /// never; `wsd tag`'s is [`MweMatcher::new`]), head words as secondary
    /// targets,
    /// no second part of speech, the shipped category model
    /// ([`CategoryModel::shipped`]) and no encoder probe. `wsd tag` with
    /// `knn` or `ens` adds the probe ([`PosProbe::for_method`] into
    /// [`Pipeline::pos_probe`]); the fields are public for other choices.
    pub fn new(
        inv: &'a Inventory,
        tagger: &'a PosTagger,
        mwe: Option<&'a MweMatcher>,
    ) -> Pipeline<'a> {
        Pipeline {
            inv,
            tagger,
            mwe,
            targets: TargetSelection::Content,
            heads: true,
            pos_alternatives: None,
            pos_categories: Some(CategoryModel::shipped()),
            pos_probe: None,
        }
    }

    /// The same pipeline with another category probe (a study's methods
    /// each get the probe [`PosProbe::for_method`] chooses for them).
    pub fn with_probe(&self, pos_probe: Option<PosProbe<'a>>) -> Pipeline<'a> {
        Pipeline {
            targets: self.targets.clone(),
            pos_probe,
            ..*self
        }
    }

    /// The same pipeline reading with another tagger (the learners' jackknifed
    /// folds, [`crate::pos::Jackknife`]).
    pub fn with_tagger<'b>(&self, tagger: &'b PosTagger) -> Pipeline<'b>
    where
        'a: 'b,
    {
        Pipeline {
            inv: self.inv,
            tagger,
            mwe: self.mwe,
            targets: self.targets.clone(),
            heads: self.heads,
            pos_alternatives: self.pos_alternatives,
            pos_categories: self.pos_categories,
            pos_probe: self.pos_probe,
        }
    }
}

impl Pipeline<'_> {
    /// Analyse `text` as (part of) document `doc_id`. Spans are shifted by
    /// `base` (the text's byte offset in its file); sentence ids count from
    /// `first_sentence`. Targets get instance ids `DOC.sN.tM`.
    pub fn analyse(
        &self,
        doc_id: &str,
        text: &str,
        base: usize,
        first_sentence: usize,
    ) -> Document {
        let mut doc = Document {
            id: doc_id.to_string(),
            sentences: Vec::new(),
        };
        let mut memory = NameMemory::default();
        let mut memo = crate::pos::category::CandidateMemo::default();
        let sentences = split_sentences(text);
        // Steps 1–1b for every sentence first, so that step 1c (the
        // encoder, `--pos-probe`) reads them in one batch.
        // The models read SemCor's ASCII quotes and apostrophes, a word
        // with diacritics in WordNet's ASCII spelling ([`accents`]), and
        // a sentence in capitals recased ([`truecase::model_words`]);
        // tokens keep the text as written.
        let forms: Vec<Vec<std::borrow::Cow<str>>> = sentences
            .iter()
            .map(|raw| truecase::model_words(self.inv, self.tagger, raw))
            .collect();
        let mut steps: Vec<SentenceCategories> = forms
            .iter()
            .map(|forms| {
                let words: Vec<&str> = forms.iter().map(|w| w.as_ref()).collect();
                self.categories(words, &mut memo)
            })
            .collect();
        let mut vector_key: Option<std::sync::Arc<str>> = None;
        if let Some(probe) = self.pos_probe {
            self.probe_categories(probe, &mut steps, &mut memo);
            vector_key = probe
                .keep_vectors
                .then(|| probe.encoder.vector_key().into());
        }
        for (si, (raw, step)) in sentences.iter().zip(steps).enumerate() {
            let sno = first_sentence + si;
            let SentenceCategories {
                words,
                tags,
                dists,
                mut poses,
                tagged,
                vectors,
                matches: step_matches,
            } = step;
            // Which words steps 1b–1c gave another category than the tagger.
            let mut revised: Vec<bool> = poses.iter().zip(&tagged).map(|(p, t)| p != t).collect();
            let mut matches = step_matches;
            if self.pos_categories.is_some() {
                proper_adjectives(self.inv, &words, &tags, &mut poses, &mut revised);
            }
            remember_names(&mut memory, &words, &tags, &matches);
            let mut lemmas: Vec<Option<String>> = (0..words.len())
                .map(|i| {
                    if revised[i] {
                        // A revised category is WordNet's reading of the
                        // word, not a name.
                        poses[i].and_then(|p| choose_lemma(self.inv, words[i], p))
                    } else {
                        self.word_lemma(&words, &tags, poses[i], i, &memory)
                    }
                })
                .collect();
            if self.pos_categories.is_some() {
                // A word left without a lemma in the tagger's category
                // that WordNet has in one other (see
                // [`sole_other_category`]) takes that one, as a revision.
                for i in 0..words.len() {
                    if lemmas[i].is_some() || revised[i] {
                        continue;
                    }
                    if let Some(only) = sole_other_category(self.inv, &tags[i], words[i], poses[i])
                    {
                        poses[i] = Some(only);
                        revised[i] = true;
                        lemmas[i] = choose_lemma(self.inv, words[i], only);
                    }
                }
            }
            // A US state's abbreviation after a place (`Peoria, Ill.`) is
            // the state, not the word its letters spell (`ill`).
            for i in 0..words.len() {
                if let Some(state) = state_abbreviation(&words, i) {
                    poses[i] = Some(Pos::Noun);
                    lemmas[i] = Some(state.to_string());
                }
            }
            remember_cues(&mut memory, &words, &tags);
            if self.mwe.is_some() {
                self.join_split_particles(&words, &tags, &mut poses, &matches, &mut lemmas);
            }
            if let TargetSelection::Lemmas(set) = &self.targets {
                // A requested lemma inside a collocation that is not itself
                // requested: keep the words apart so the lemma is found.
                matches.retain(|m| {
                    set.contains(&m.lemma)
                        || !lemmas[m.start..m.end]
                            .iter()
                            .any(|l| l.as_ref().is_some_and(|l| set.contains(l)))
                });
            }
            let mut tokens = Vec::with_capacity(raw.len());
            // The word of each single-word token.
            let mut word_of: Vec<Option<usize>> = Vec::with_capacity(raw.len());
            // The words of each token (a unit's several).
            let mut words_of: Vec<std::ops::Range<usize>> = Vec::with_capacity(raw.len());
            let mut mi = 0;
            let mut i = 0;
            while i < raw.len() {
                if mi < matches.len() && matches[mi].start == i {
                    let m = &matches[mi];
                    mi += 1;
                    let (start, end) = (raw[m.start].start, raw[m.end - 1].end);
                    // The head's tag: first word of a verb phrase, else the last word.
                    let head_tag = if m.pos == Pos::Verb {
                        &tags[m.start]
                    } else {
                        &tags[m.end - 1]
                    };
                    let tagged = Pos::from_tag(head_tag);
                    let pos = match tagged {
                        Some(p) if !self.inv.senses(&m.lemma, p).is_empty() => p,
                        _ => m.pos,
                    };
                    // An adverb unit before a noun is the adjective when
                    // WordNet has one (`an ad hoc committee`, `a de facto
                    // ban`: the tagger reads `hoc`, `facto` as adverbs).
                    let pos = if pos == Pos::Adv
                        && tags.get(m.end).is_some_and(|t| t.starts_with("NN"))
                        && !self.inv.senses(&m.lemma, Pos::Adj).is_empty()
                    {
                        Pos::Adj
                    } else {
                        pos
                    };
                    let h = if m.pos == Pos::Verb {
                        m.start
                    } else {
                        m.end - 1
                    };
                    let several = self.heads && m.end - m.start > 1;
                    let word = |k: usize| {
                        self.unit_word(&raw[k], &lemmas[k], poses[k], &tags[k], base)
                            .filter(|w| w.lemma.as_deref() != Some(m.lemma.as_str()))
                    };
                    let head = several.then(|| word(h)).flatten();
                    let parts = if several {
                        (m.start..m.end)
                            .filter(|&k| k != h)
                            .filter_map(|k| word(k).map(|w| *w))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    tokens.push(Token {
                        text: text[start..end].to_string(),
                        lemma: Some(m.lemma.clone()),
                        tag: Some(head_tag.clone()),
                        pos: Some(pos),
                        span: Some((base + start, base + end)),
                        head,
                        parts,
                        ..Token::default()
                    });
                    word_of.push(None);
                    words_of.push(m.start..m.end);
                    i = m.end;
                    continue;
                }
                let t = &raw[i];
                tokens.push(Token {
                    text: t.text.clone(),
                    // A word WordNet lacks is its own lemma, in the models'
                    // spelling (`’s` → `'s`, as Naive Bayes learned it);
                    // an emoji is itself (the models read it as `.`).
                    lemma: Some(lemmas[i].clone().unwrap_or_else(|| {
                        if crate::text::is_emoji(&t.text) {
                            t.text.clone()
                        } else {
                            words[i].to_lowercase()
                        }
                    })),
                    tag: Some(tags[i].clone()),
                    pos: poses[i],
                    span: Some((base + t.start, base + t.end)),
                    ..Token::default()
                });
                word_of.push(Some(i));
                words_of.push(i..i + 1);
                i += 1;
            }
            let aux = auxiliary_flags(self.inv, &tokens);
            for (ti, tok) in tokens.iter_mut().enumerate() {
                if self.is_target(tok, aux[ti]) {
                    tok.instance = Some(format!("{doc_id}.s{sno}.t{ti}"));
                    if let (Some(encoder), Some(probe)) = (&vector_key, self.pos_probe) {
                        tok.vector =
                            token_vector(probe.encoder, &words, &vectors, words_of[ti].clone())
                                .map(|values| crate::corpus::WordVector {
                                    encoder: encoder.clone(),
                                    values,
                                });
                    }
                } else if let Some(w) = word_of[ti].filter(|&w| revised[w]) {
                    // The category model decides targets only: a word it
                    // revised that is still no target (a particle `in`
                    // the tagger calls `VB`, revised to the adverb the
                    // target table leaves out) keeps the tagger's reading,
                    // or none when WordNet lacks it, rather than showing a
                    // category nothing was disambiguated as. (Making the
                    // tagger's reading a target when it is one: SemCor
                    // train split `mfs --raw` 10 more wrong POS, 2 more
                    // matched, F1 71.6 either way; not done.)
                    let p = tag_category(self.inv, &tags[w], words[w]);
                    let lemma = p.and_then(|p| choose_lemma(self.inv, words[w], p));
                    let has = |l: &String| p.is_some_and(|p| !self.inv.senses(l, p).is_empty());
                    match lemma.filter(has) {
                        Some(l) => {
                            tok.pos = p;
                            tok.lemma = Some(l);
                        }
                        None => tok.pos = None,
                    }
                } else if tok.pos.is_some_and(|p| {
                    tok.lemma
                        .as_deref()
                        .is_none_or(|l| !self.inv.has_lemma(l, p))
                }) {
                    // Nor does any other word that is no target show a
                    // category WordNet lacks its lemma in: SemCor tags the
                    // words of untagged phrases with the phrase's tag
                    // (`the`/RB in `the most`, `to`/VB after `went`, 1,911
                    // times `to`/VB), and the tagger learned them; the Penn
                    // tag stays in `tag`.
                    tok.pos = None;
                }
                if let Some(h) = tok.head.as_deref_mut() {
                    if self.is_target(h, false) {
                        h.instance = Some(format!("{doc_id}.s{sno}.t{ti}.h"));
                    }
                }
                for p in &mut tok.parts {
                    if self.is_target(p, false) {
                        // The part's index among the unit's words.
                        let start = p.span.map(|s| s.0);
                        let k = words_of[ti]
                            .clone()
                            .position(|w| Some(base + raw[w].start) == start)
                            .unwrap_or_default();
                        p.instance = Some(format!("{doc_id}.s{sno}.t{ti}.w{k}"));
                    }
                }
                if let (Some(min), Some(w), Some(_)) =
                    (self.pos_alternatives, word_of[ti], &tok.instance)
                {
                    self.add_alternative(tok, words[w], &tags[w], &dists[w], min);
                    if let Some(a) = tok.alt.as_deref_mut() {
                        a.instance = Some(format!("{doc_id}.s{sno}.t{ti}.p"));
                    }
                }
            }
            if let (Some(encoder), Some(probe)) = (&vector_key, self.pos_probe) {
                if probe.keep_sentences {
                    set_sentence_vector(
                        probe.encoder,
                        encoder,
                        &words,
                        &vectors,
                        &words_of,
                        &mut tokens,
                    );
                }
            }
            doc.sentences.push(Sentence {
                id: format!("{doc_id}.s{sno}"),
                tokens,
            });
        }
        doc
    }

    /// Steps 1 and 1b of one sentence: the tags, the tagger's categories
    /// and the category model's revision of them.
    fn categories<'w>(
        &self,
        words: Vec<&'w str>,
        memo: &mut crate::pos::category::CandidateMemo,
    ) -> SentenceCategories<'w> {
        let (mut tags, dists, cats) = self.tag(&words, memo);
        repair_acronyms(self.inv, &words, &mut tags);
        let mut poses: Vec<Option<Pos>> = tags
            .iter()
            .zip(&words)
            .map(|(t, w)| Pos::from_tag(t).or_else(|| self.function_tag_pos(t, w)))
            .collect();
        let tagged = poses.clone();
        if let Some(m) = self.pos_categories {
            let s = crate::pos::category::Tagged {
                words: &words,
                tags: &tags,
                probs: &cats,
            };
            m.revise(self.inv, self.tagger, s, &mut poses, memo);
            stranded_adverbs(self.inv, &words, &tags, &mut poses);
        }
        SentenceCategories {
            vectors: Vec::new(),
            matches: self.sentence_matches(&words, &tags),
            words,
            tags,
            dists,
            poses,
            tagged,
        }
    }

    /// Tag a sentence: the tags, and what steps 1b and 5 need — each
    /// word's tag distribution (`--pos-alternatives`) and its category
    /// probabilities (the category model) — when they are on.
    fn tag(
        &self,
        words: &[&str],
        memo: &mut crate::pos::category::CandidateMemo,
    ) -> (Vec<String>, Vec<Vec<f32>>, Vec<[f32; 4]>) {
        let t = temperature();
        if self.pos_alternatives.is_some() {
            let (tags, dists) = self.tagger.tag_with_probabilities(words, t);
            let tagset = self.tagger.tagset();
            let cats = dists
                .iter()
                .map(|d| crate::pos::category::category_probs(tagset, d))
                .collect();
            (tags, dists, cats)
        } else if self.pos_categories.is_some() {
            let want =
                crate::pos::category::wanted_probabilities(self.tagger, self.inv, words, memo);
            let (tags, cats) = self.tagger.tag_with_category_probabilities(words, t, &want);
            (tags, Vec::new(), cats)
        } else {
            (self.tagger.tag(words), Vec::new(), Vec::new())
        }
    }

    /// The collocations and multiword names of a tagged sentence (none
    /// with `--no-mwe`).
    pub fn sentence_matches<S: AsRef<str>>(&self, words: &[&str], tags: &[S]) -> Vec<MweMatch> {
        match self.mwe {
            Some(m) => with_name_units(self.inv, m.find_tagged(self.inv, words, tags), words, tags),
            None => Vec::new(),
        }
    }

    /// The lemma of word `i` of a tagged sentence (WordNet category `pos`)
    /// as a token of its own: a name the name table knows gets its lemma
    /// ([`known_name`]); another capitalised proper noun that WordNet has
    /// or that looks like a name is [`crate::text::names::NameModel`]'s call between `person`,
    /// `group`, `location` and its WordNet lemma ([`name_or_wordnet`]);
    /// else (no model) the rules: [`common_only_name`], the WordNet lemma,
    /// [`name_lemma`].
    pub fn word_lemma<S: AsRef<str>>(
        &self,
        words: &[&str],
        tags: &[S],
        pos: Option<Pos>,
        i: usize,
        memory: &NameMemory,
    ) -> Option<String> {
        let (w, t) = (words[i], tags[i].as_ref());
        if let Some(l) = known_name(w, t) {
            return Some(l);
        }
        if let Some(l) = name_or_wordnet(self.inv, words, tags, pos, i, memory) {
            return l;
        }
        common_only_name(self.inv, w, t)
            .or_else(|| pos.and_then(|p| choose_lemma(self.inv, w, p)))
            .or_else(|| name_lemma(w, t))
            .or_else(|| acronym_name(self.inv, w, t))
    }

    /// A word of a joined unit (its head, or one of its parts) as a token
    /// of its own (not yet a target): `None` for a proper name (a name
    /// unit's words are names, not words with senses of their own) or a
    /// word without a lemma.
    fn unit_word(
        &self,
        word: &crate::text::RawToken,
        lemma: &Option<String>,
        pos: Option<Pos>,
        tag: &str,
        base: usize,
    ) -> Option<Box<Token>> {
        if matches!(tag, "NNP" | "NNPS") {
            return None;
        }
        Some(Box::new(Token {
            text: word.text.clone(),
            lemma: Some(lemma.clone()?),
            tag: Some(tag.to_string()),
            pos: Some(pos?),
            span: Some((base + word.start, base + word.end)),
            ..Token::default()
        }))
    }

    /// The WordNet category of a word the tagger gave a function-word tag
    /// that WordNet still has as an adjective or adverb, as SemCor's
    /// annotators tag it: numbers and determiners (`CD`, `DT`, `PDT`: `one`,
    /// `two`, `all`, `no`, `some`) as adjectives when WordNet has them so,
    /// existential `there` (`EX`) as an adverb. Whether they are then
    /// targets is the target table's call.
    fn function_tag_pos(&self, tag: &str, word: &str) -> Option<Pos> {
        function_tag_pos(self.inv, tag, word)
    }

    /// Give a verb whose particle follows its object (`square it up`) the
    /// particle verb's lemma (`square_up`) when SemCor's annotators tag
    /// its split uses so and WordNet has it as a verb
    /// ([`particles::split_particle`], [`particles::SplitParticles`]); the
    /// particle is then no target, as SemCor leaves it untagged. Verbs
    /// and particles inside a collocation the matcher joined are left
    /// alone.
    fn join_split_particles<S: AsRef<str>>(
        &self,
        words: &[&str],
        tags: &[S],
        poses: &mut [Option<Pos>],
        matches: &[MweMatch],
        lemmas: &mut [Option<String>],
    ) {
        let inside = |k: usize| matches.iter().any(|m| (m.start..m.end).contains(&k));
        for i in 0..words.len() {
            if poses[i] != Some(Pos::Verb) || inside(i) {
                continue;
            }
            let Some(k) = particles::split_particle(words, tags, i) else {
                continue;
            };
            let Some(verb) = lemmas[i].as_deref() else {
                continue;
            };
            let joined = format!("{verb}_{}", words[k].to_lowercase());
            if let TargetSelection::Lemmas(set) = &self.targets {
                // A requested verb is found as itself, as inside a
                // collocation.
                if set.contains(verb) && !set.contains(&joined) {
                    continue;
                }
            }
            if !inside(k)
                && particles::SplitParticles::shipped().joins(&joined)
                && !self.inv.senses(&joined, Pos::Verb).is_empty()
            {
                lemmas[i] = Some(joined);
                // The particle is part of the verb now, untagged as
                // SemCor's annotators leave it.
                poses[k] = None;
            }
        }
    }

    /// Is `tok` (an auxiliary use of `be`/`have`/`do` when `aux`) a target?
    fn is_target(&self, tok: &Token, aux: bool) -> bool {
        let (Some(lemma), Some(pos)) = (&tok.lemma, tok.pos) else {
            return false;
        };
        // A capital acronym read as a noun (`WHO`, `IT`: see
        // [`repair_acronyms`]) is the organisation or the field, not the
        // function word its lemma spells, which the table leaves out.
        let acronym = pos == Pos::Noun
            && tok.text.chars().count() >= 2
            && tok.text.chars().all(|c| c.is_ascii_uppercase());
        let selected = match &self.targets {
            TargetSelection::Content => {
                acronym || TargetTable::shipped().is_target(lemma, pos, aux)
            }
            TargetSelection::All => true,
            TargetSelection::Lemmas(set) => set.contains(lemma),
            TargetSelection::Table(t) => acronym || t.is_target(lemma, pos, aux),
        };
        selected && !self.inv.senses(lemma, pos).is_empty()
    }
}

/// The soft-max temperature: [`POS_TEMPERATURE`], or `$WSD_POS_TEMPERATURE`
/// (for the tuning runs).
fn temperature() -> f32 {
    // Read once: this is asked for every sentence.
    static T: std::sync::OnceLock<f32> = std::sync::OnceLock::new();
    *T.get_or_init(|| {
        std::env::var("WSD_POS_TEMPERATURE")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(POS_TEMPERATURE)
    })
}

/// For each token of a sentence, whether it is an auxiliary use of `be`,
/// `have` or `do` ([`is_auxiliary`]: before a participle, or `do` before a
/// verb) or an existential `there` ([`is_existential`]): the function uses
/// the target table tells apart.
pub fn auxiliary_flags(inv: &Inventory, tokens: &[Token]) -> Vec<bool> {
    let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
    let tags: Vec<&str> = tokens
        .iter()
        .map(|t| t.tag.as_deref().unwrap_or(""))
        .collect();
    let lemmas: Vec<Option<&str>> = tokens.iter().map(|t| t.lemma.as_deref()).collect();
    // A word tagged as a verb is one when WordNet has its lemma as a verb
    // (`it` tagged `VB` is not; see `is_auxiliary`).
    let is_verb = |j: usize| {
        lemmas[j].is_some_and(|l| AUXILIARY_VERBS.contains(&l) || inv.has_lemma(l, Pos::Verb))
    };
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let lemma = t.lemma.as_deref().unwrap_or("");
            (t.pos == Some(Pos::Verb) && is_auxiliary(lemma, &words, &tags, &lemmas, is_verb, i))
                || is_existential(lemma, tags[i])
        })
        .collect()
}

/// Rebuild the plain text of an annotated document (one line per sentence,
/// tokens joined by single spaces, `_` in multiwords turned into spaces) and
/// the byte span of every token, so a pipeline run on the text can be aligned
/// back to the gold instances.
pub fn rebuild_text(doc: &Document) -> (String, Vec<Vec<(usize, usize)>>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(doc.sentences.len());
    for s in &doc.sentences {
        let mut sp = Vec::with_capacity(s.tokens.len());
        for (i, t) in s.tokens.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            let start = text.len();
            text.push_str(&t.text.replace('_', " "));
            sp.push((start, text.len()));
        }
        text.push('\n');
        spans.push(sp);
    }
    (text, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse() {
        assert_eq!("content".parse(), Ok(TargetSelection::Content));
        assert_eq!("all".parse(), Ok(TargetSelection::All));
        let TargetSelection::Lemmas(set) = "Bank, take place".parse().unwrap() else {
            panic!("a lemma list");
        };
        assert!(set.contains("bank") && set.contains("take_place"));
        assert!("".parse::<TargetSelection>().is_err());
    }
}
