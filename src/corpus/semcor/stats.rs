//! Counts over SemCor tagfiles (`wsd stats`), per part and in total.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// Counts over SemCor tagfiles, for one part (`brown1`, `brown2`, `brownv`)
/// or in total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PartStats {
    /// Tagfiles read.
    pub documents: usize,
    /// `<p>` paragraphs.
    pub paragraphs: usize,
    /// `<s>` sentences.
    pub sentences: usize,
    /// `<wf>` tokens (tagged or not).
    pub wf_tokens: usize,
    /// `<punc>` tokens.
    pub punctuation: usize,
    /// `wf` tokens carrying a `lexsn` (sense-tagged in the file).
    pub with_lexsn: usize,
    /// `wf` tokens whose `lexsn` lists several senses.
    pub several_lexsn: usize,
    /// `wf` tokens with a `lexsn` but `wnsn=0` for every sense: left untagged.
    pub wnsn_zero: usize,
    /// Single senses with `wnsn=0` dropped (including those beside a kept sense).
    pub zero_senses_dropped: usize,
    /// `wf` tokens with a sense number (`wnsn`, not 0) but no `lexsn`, the
    /// sense key: dropped, left untagged (none in SemCor 3.0).
    pub wnsn_without_lexsn: usize,
    /// Tokens with at least one gold key (the instances).
    pub instances: usize,
    /// Instances with several gold keys.
    pub several_gold: usize,
    /// Gold keys in total.
    pub gold_keys: usize,
    /// Gold keys whose head word lost an `(a)`/`(p)`/`(ip)` marker.
    pub heads_normalised: usize,
}

impl PartStats {
    /// Add another file's or part's counts.
    pub fn add(&mut self, o: &PartStats) {
        self.documents += o.documents;
        self.paragraphs += o.paragraphs;
        self.sentences += o.sentences;
        self.wf_tokens += o.wf_tokens;
        self.punctuation += o.punctuation;
        self.with_lexsn += o.with_lexsn;
        self.several_lexsn += o.several_lexsn;
        self.wnsn_zero += o.wnsn_zero;
        self.zero_senses_dropped += o.zero_senses_dropped;
        self.wnsn_without_lexsn += o.wnsn_without_lexsn;
        self.instances += o.instances;
        self.several_gold += o.several_gold;
        self.gold_keys += o.gold_keys;
        self.heads_normalised += o.heads_normalised;
    }

    /// The SemCor tags a training or evaluation run does not use, and why:
    /// the reader's drops (senses with `wnsn=0`, sense numbers without a
    /// `lexsn`) and `unknown_keys`, gold keys this WordNet lacks (counted
    /// by [`crate::corpus::check_gold_keys`]; 0 when not checked). `None`
    /// when nothing was skipped; else `N SemCor tags skipped (…)`, the
    /// clause the summary lines of `wsd stats`, `wsd train` and `wsd eval
    /// --semcor` carry.
    pub fn skipped_note(&self, unknown_keys: usize) -> Option<String> {
        let n = self.zero_senses_dropped + self.wnsn_without_lexsn + unknown_keys;
        if n == 0 {
            return None;
        }
        let mut why = Vec::new();
        if self.zero_senses_dropped > 0 {
            why.push(format!(
                "{} with wnsn=0, senses lost in the 1.6→3.0 mapping",
                self.zero_senses_dropped
            ));
        }
        if self.wnsn_without_lexsn > 0 {
            why.push(format!(
                "{} with a wnsn but no lexsn (no sense key)",
                self.wnsn_without_lexsn
            ));
        }
        if unknown_keys > 0 {
            why.push(format!("{unknown_keys} whose sense key this WordNet lacks"));
        }
        Some(format!("{n} SemCor tags skipped ({})", why.join("; ")))
    }
}

/// Counts per SemCor part (the folder holding `tagfiles/`), see
/// [`super::read_semcor_with_stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SemcorStats {
    /// Part name (`brown1`, …) → counts.
    pub parts: BTreeMap<String, PartStats>,
}

impl SemcorStats {
    /// Counts summed over all parts.
    pub fn total(&self) -> PartStats {
        let mut t = PartStats::default();
        for p in self.parts.values() {
            t.add(p);
        }
        t
    }
}

impl fmt::Display for SemcorStats {
    /// A table: one column per part and a total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        let mut cols: Vec<(&str, &PartStats)> =
            self.parts.iter().map(|(k, v)| (k.as_str(), v)).collect();
        cols.push(("total", &total));
        type Row = (&'static str, fn(&PartStats) -> usize);
        let rows: [Row; 14] = [
            ("documents", |p| p.documents),
            ("paragraphs", |p| p.paragraphs),
            ("sentences", |p| p.sentences),
            ("wf tokens", |p| p.wf_tokens),
            ("punctuation", |p| p.punctuation),
            ("wf with lexsn", |p| p.with_lexsn),
            ("several lexsn", |p| p.several_lexsn),
            ("untagged wnsn=0", |p| p.wnsn_zero),
            ("senses wnsn=0 dropped", |p| p.zero_senses_dropped),
            ("wnsn without lexsn", |p| p.wnsn_without_lexsn),
            ("instances", |p| p.instances),
            ("several gold keys", |p| p.several_gold),
            ("gold keys", |p| p.gold_keys),
            ("heads normalised", |p| p.heads_normalised),
        ];
        write!(f, "{:<22}", "")?;
        for (name, _) in &cols {
            write!(f, " {name:>9}")?;
        }
        writeln!(f)?;
        for (label, get) in rows {
            write!(f, "{label:<22}")?;
            for (_, p) in &cols {
                write!(f, " {:>9}", get(p))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
