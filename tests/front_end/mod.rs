//! The text front end on real data: targets as SemCor's annotators choose
//! them, multiwords joined on evidence, the lemma rule, `--mwe`, and the
//! `--raw` alignment.
//!
//! By concern: [`targets_and_lemmas`], [`multiwords`], [`names`],
//! [`categories`], [`text_forms`], [`alignment`]; the helpers here.

mod alignment;
mod categories;
mod multiwords;
mod names;
mod targets_and_lemmas;
mod text_forms;

use std::sync::OnceLock;

use crate::util::*;
use wsd::corpus::{attach_gold, read_key_file, read_xml};
use wsd::pipeline::{align_raw, rebuild_text, Pipeline, RawBreakdown, TargetSelection};
use wsd::pos::PosTagger;
use wsd::text::{choose_lemma, MweMatcher, MweMode};
use wsd::wordnet::Pos;

fn tagger() -> &'static PosTagger {
    static T: OnceLock<PosTagger> = OnceLock::new();
    T.get_or_init(|| {
        let (_, body) = wsd::model_io::read_model(&pos_model(), "pos", None).unwrap();
        PosTagger::from_bytes(&body).unwrap()
    })
}

fn matcher(mode: MweMode) -> &'static MweMatcher {
    static M: OnceLock<[MweMatcher; 2]> = OnceLock::new();
    let m = M.get_or_init(|| {
        [
            MweMatcher::with_mode(inventory(), MweMode::Learned),
            MweMatcher::with_mode(inventory(), MweMode::Greedy),
        ]
    });
    match mode {
        MweMode::Learned => &m[0],
        MweMode::Greedy => &m[1],
        MweMode::None => panic!("no matcher for none"),
    }
}

/// The default pipeline (no head rows) with `mode` and `targets`.
fn pipeline(mode: MweMode, targets: TargetSelection) -> Pipeline<'static> {
    Pipeline {
        inv: inventory(),
        tagger: tagger(),
        mwe: Some(matcher(mode)),
        targets,
        heads: false,
        pos_alternatives: None,
        pos_categories: Some(wsd::pos::category::CategoryModel::shipped()),
        pos_probe: None,
    }
}

/// (text, lemma, target?) of every token of `text`.
fn analyse(text: &str, mode: MweMode, targets: TargetSelection) -> Vec<(String, String, bool)> {
    pipeline(mode, targets)
        .analyse("d", text, 0, 0)
        .sentences
        .into_iter()
        .flat_map(|s| s.tokens)
        .map(|t| (t.text, t.lemma.unwrap_or_default(), t.instance.is_some()))
        .collect()
}

fn joined(text: &str, mode: MweMode) -> Vec<String> {
    analyse(text, mode, TargetSelection::Content)
        .into_iter()
        .filter(|(_, l, _)| l.contains('_'))
        .map(|(_, l, _)| l)
        .collect()
}

/// The lemmas of the units spelled by several words (`per cent`).
fn units(text: &str, mode: MweMode) -> Vec<String> {
    analyse(text, mode, TargetSelection::Content)
        .into_iter()
        .filter(|(t, _, _)| t.contains(' '))
        .map(|(_, l, _)| l)
        .collect()
}

fn semeval_breakdown(mode: MweMode, heads: bool) -> RawBreakdown {
    let d = semeval();
    let mut docs = read_xml(d.join("semeval2007.data.xml")).unwrap();
    let gold = read_key_file(d.join("semeval2007.gold.key.txt")).unwrap();
    attach_gold(&mut docs, &gold);
    let p = Pipeline {
        inv: inventory(),
        tagger: tagger(),
        mwe: Some(matcher(mode)),
        targets: TargetSelection::Content,
        heads,
        pos_alternatives: None,
        pos_categories: Some(wsd::pos::category::CategoryModel::shipped()),
        pos_probe: None,
    };
    let mut total = RawBreakdown::default();
    for doc in &docs {
        let (text, spans) = rebuild_text(doc);
        let (rows, b) = align_raw(doc, &spans, &p.analyse(&doc.id, &text, 0, 0));
        assert_eq!(rows.len(), b.instances);
        total.merge(&b);
    }
    total
}

/// (text, category letter) of the targets of `text`.
fn categories(text: &str) -> Vec<(String, char)> {
    pipeline(MweMode::Learned, TargetSelection::Content)
        .analyse("d", text, 0, 0)
        .sentences
        .into_iter()
        .flat_map(|s| s.tokens)
        .filter(|t| t.instance.is_some())
        .filter_map(|t| Some((t.text, t.pos?.letter())))
        .collect()
}

/// `wsd tag --method mfs` on `text`: its TSV output (the exit code checked).
fn tag_mfs(text: &[u8]) -> String {
    let (code, out, err) = run_stdin(tag().args(["--method", "mfs"]), text);
    assert_eq!(code, 0, "{err}");
    out
}

/// The TSV rows of `out`, fields split.
fn tsv_rows(out: &str) -> Vec<Vec<&str>> {
    out.lines().map(|l| l.split('\t').collect()).collect()
}

/// The first row whose text is `w` (a panic naming it otherwise).
fn row_of<'r, 'a>(rows: &'r [Vec<&'a str>], w: &str) -> &'r [&'a str] {
    rows.iter()
        .find(|r| r.get(5) == Some(&w))
        .unwrap_or_else(|| panic!("no row for {w}: {rows:?}"))
}
