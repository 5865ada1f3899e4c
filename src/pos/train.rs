//! Training the tagger: the averaged perceptron's weights with lazy
//! averaging ([`Trainer`]), the deterministic shuffle, the tag dictionary
//! and the feature index (see the module docs of `pos` for the model).

use super::*;

/// SplitMix64: small, fast, deterministic.
pub(super) struct SplitMix64(pub(super) u64);

impl SplitMix64 {
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }

    pub(super) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// A weight during training, with the bookkeeping for lazy averaging.
struct Param {
    total: i64,
    stamp: u64,
    weight: i32,
    tag: u16,
}

/// The perceptron during training: sparse rows of integer weights.
struct Trainer {
    index: HashMap<u64, u32, IdBuild>,
    rows: Vec<Vec<Param>>,
    /// Number of updates (examples) seen so far.
    instances: u64,
}

impl Trainer {
    fn predict(&self, feats: &[u64], scores: &mut [i64]) -> u16 {
        scores.iter_mut().for_each(|s| *s = 0);
        for f in feats {
            if let Some(&r) = self.index.get(f) {
                for p in &self.rows[r as usize] {
                    scores[p.tag as usize] += i64::from(p.weight);
                }
            }
        }
        argmax(scores)
    }

    fn update(&mut self, truth: u16, guess: u16, feats: &[u64]) {
        self.instances += 1;
        if truth == guess {
            return;
        }
        let now = self.instances;
        for &f in feats {
            let next = self.rows.len() as u32;
            let r = *self.index.entry(f).or_insert(next);
            if r == next {
                self.rows.push(Vec::new());
            }
            let row = &mut self.rows[r as usize];
            for (tag, delta) in [(truth, 1), (guess, -1)] {
                let p = match row.iter_mut().position(|p| p.tag == tag) {
                    Some(k) => &mut row[k],
                    None => {
                        row.push(Param {
                            total: 0,
                            stamp: now,
                            weight: 0,
                            tag,
                        });
                        row.last_mut().expect("just pushed")
                    }
                };
                p.total += (now - p.stamp) as i64 * i64::from(p.weight);
                p.stamp = now;
                p.weight += delta;
            }
        }
    }
}

/// One perceptron pass of POS training done: what the progress callback
/// of [`PosTagger::train_with_inventory_progress`] gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pass {
    /// Passes done (1-based).
    pub done: usize,
    /// Passes in all.
    pub of: usize,
    /// Supervised words seen in this pass.
    pub words: usize,
    /// Of those, how many the model tagged wrong before its update.
    pub mistagged: usize,
    /// Seconds since the first pass began.
    pub seconds: f64,
}

impl std::fmt::Display for Pass {
    /// `pass 3 of 10: 2.1% of 771234 training words mistagged, 12.3 s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pass {} of {}: {:.1}% of {} training words mistagged, {:.1} s",
            self.done,
            self.of,
            100.0 * self.mistagged as f64 / self.words.max(1) as f64,
            self.words,
            self.seconds
        )
    }
}

impl PosTagger {
    /// Train on `sentences` of `(word, tag)` pairs for `iterations` passes,
    /// visiting the sentences in a fresh shuffle (seeded by `seed`) each
    /// pass. Multiword tokens joined with `_` are split into their words
    /// (see the module docs). Deterministic: the same input gives the same
    /// model. Without WordNet's lexicon: prefer
    /// [`PosTagger::train_with_inventory`], which is 0.7 points more
    /// accurate on WordNet categories.
    pub fn train(sentences: &[Vec<(String, String)>], iterations: usize, seed: u64) -> PosTagger {
        PosTagger::train_with_lexicon(sentences, iterations, seed, Lexicon::default())
    }

    /// [`PosTagger::train`] with WordNet's lexicon (see [`Lexicon`]):
    /// the categories WordNet allows for each word become features, and
    /// the lexicon is stored in the model so [`PosTagger::tag`] still
    /// needs nothing else. Reads the inventory's `*.exc` files.
    pub fn train_with_inventory(
        sentences: &[Vec<(String, String)>],
        iterations: usize,
        seed: u64,
        inv: &crate::wordnet::Inventory,
    ) -> crate::Result<PosTagger> {
        PosTagger::train_with_inventory_progress(sentences, iterations, seed, inv, &|_| {})
    }

    /// [`PosTagger::train_with_inventory`], calling `progress` after each
    /// pass (what `wsd train --method pos` prints).
    pub fn train_with_inventory_progress(
        sentences: &[Vec<(String, String)>],
        iterations: usize,
        seed: u64,
        inv: &crate::wordnet::Inventory,
        progress: &dyn Fn(&Pass),
    ) -> crate::Result<PosTagger> {
        let lexicon = Lexicon::from_inventory(inv)?;
        Ok(PosTagger::train_with_progress(
            sentences,
            PosTagger::lexicon_options(iterations, seed),
            lexicon,
            progress,
        ))
    }

    fn lexicon_options(iterations: usize, seed: u64) -> TrainOptions {
        TrainOptions {
            iterations,
            seed,
            flags: DEFAULT_FLAGS | flags::LEXICON,
            heads_only: true,
            coarse: false,
            tagdict: (TAGDICT_MIN_FREQ, TAGDICT_MIN_SHARE),
        }
    }

    /// [`PosTagger::train`] with a given lexicon (an empty one turns the
    /// lexicon features off).
    pub fn train_with_lexicon(
        sentences: &[Vec<(String, String)>],
        iterations: usize,
        seed: u64,
        lexicon: Lexicon,
    ) -> PosTagger {
        PosTagger::train_with(
            sentences,
            PosTagger::lexicon_options(iterations, seed),
            lexicon,
        )
    }

    pub(crate) fn train_with(
        sentences: &[Vec<(String, String)>],
        opts: TrainOptions,
        lexicon: Lexicon,
    ) -> PosTagger {
        PosTagger::train_with_progress(sentences, opts, lexicon, &|_| {})
    }

    fn train_with_progress(
        sentences: &[Vec<(String, String)>],
        mut opts: TrainOptions,
        lexicon: Lexicon,
        progress: &dyn Fn(&Pass),
    ) -> PosTagger {
        if lexicon.is_empty() {
            opts.flags &= !flags::LEXICON;
        }
        // Expand multiwords; collect the tag set. Each word gets its gold
        // tag, or `None` for the non-head words of a multiword when only
        // heads are supervised.
        let mut expanded: Vec<(Vec<&str>, Vec<Option<&str>>)> = Vec::with_capacity(sentences.len());
        let mut tagset: Vec<&str> = Vec::new();
        for s in sentences {
            let (words, spans) = expand(s.iter().map(|(w, _)| w.as_str()));
            let mut tags = Vec::with_capacity(words.len());
            for ((_, t), span) in s.iter().zip(&spans) {
                let head = if is_verbal(t) {
                    span.start
                } else {
                    span.end - 1
                };
                for k in span.clone() {
                    let supervised = span.len() == 1 || k == head || !opts.heads_only;
                    let t = if opts.coarse { coarse_tag(t) } else { t };
                    tags.push(supervised.then_some(t));
                }
            }
            tagset.extend(tags.iter().flatten().copied());
            expanded.push((words, tags));
        }
        tagset.sort_unstable();
        tagset.dedup();
        tagset.truncate(usize::from(START2)); // ids START2/START are reserved
        let tag_id: HashMap<&str, u16> = tagset
            .iter()
            .enumerate()
            .map(|(i, t)| (*t, i as u16))
            .collect();

        // Contexts and gold ids; tag dictionary counts.
        let mut prepared: Vec<(Context, Vec<Option<u16>>)> = Vec::with_capacity(expanded.len());
        let mut counts: HashMap<String, HashMap<u16, u32>> = HashMap::new();
        for (words, tags) in &expanded {
            let ctx = Context::new(words, opts.flags, &lexicon);
            let gold: Vec<Option<u16>> = tags
                .iter()
                .map(|t| t.and_then(|t| tag_id.get(t).copied()))
                .collect();
            for (w, g) in ctx.raw.iter().zip(&gold) {
                if let Some(g) = *g {
                    *counts.entry(w.clone()).or_default().entry(g).or_default() += 1;
                }
            }
            prepared.push((ctx, gold));
        }
        let tags: Vec<String> = tagset.iter().map(|t| t.to_string()).collect();
        let closed = super::ClosedClass::from_seen(
            &tags,
            counts
                .iter()
                .flat_map(|(w, by_tag)| by_tag.keys().map(move |&t| (w.as_str(), t))),
        );
        let mut tagdict = FxHashMap::default();
        for (w, by_tag) in counts {
            let n: u32 = by_tag.values().sum();
            let (&best, &k) = by_tag
                .iter()
                .max_by_key(|(t, c)| (**c, std::cmp::Reverse(**t)))
                .expect("counted at least once");
            if n >= opts.tagdict.0
                && f64::from(k) / f64::from(n) >= opts.tagdict.1
                && w.len() <= usize::from(u16::MAX)
            {
                tagdict.insert(w, best);
            }
        }

        // Perceptron passes.
        let mut trainer = Trainer {
            index: HashMap::default(),
            rows: Vec::new(),
            instances: 0,
        };
        let mut rng = SplitMix64(opts.seed);
        let mut order: Vec<usize> = (0..prepared.len()).collect();
        let mut scores = vec![0i64; tagset.len().max(1)];
        let mut feats = Vec::new();
        let started = std::time::Instant::now();
        for pass in 0..opts.iterations {
            rng.shuffle(&mut order);
            let (mut words, mut mistagged) = (0, 0);
            for &si in &order {
                let (ctx, gold) = &prepared[si];
                let (mut prev, mut prev2) = (START, START2);
                for (i, truth) in gold.iter().enumerate() {
                    let guess = match tagdict.get(&ctx.raw[i]) {
                        Some(&t) => t,
                        None => {
                            ctx.features(i, prev, prev2, opts.flags, &mut feats);
                            let guess = trainer.predict(&feats, &mut scores);
                            if let Some(truth) = *truth {
                                trainer.update(truth, guess, &feats);
                            }
                            guess
                        }
                    };
                    if let Some(truth) = *truth {
                        words += 1;
                        mistagged += usize::from(truth != guess);
                    }
                    prev2 = prev;
                    prev = guess;
                }
            }
            progress(&Pass {
                done: pass + 1,
                of: opts.iterations,
                words,
                mistagged,
                seconds: started.elapsed().as_secs_f64(),
            });
        }

        // Average, prune, and lay out rows in feature-hash order.
        let n = trainer.instances.max(1);
        let mut keyed: Vec<(u64, u32)> = trainer.index.into_iter().collect();
        keyed.sort_unstable();
        let mut index = super::rows::FeatureRows::with_capacity(keyed.len());
        let mut entries = Vec::new();
        for (key, r) in keyed {
            let mut row: Vec<(u16, f32)> = trainer.rows[r as usize]
                .iter()
                .filter_map(|p| {
                    let total = p.total + (n - p.stamp) as i64 * i64::from(p.weight);
                    let avg = total as f64 / n as f64;
                    (avg.abs() >= PRUNE_BELOW).then_some((p.tag, avg as f32))
                })
                .collect();
            if row.is_empty() {
                continue;
            }
            row.sort_unstable_by_key(|e| e.0);
            let start = entries.len() as u32;
            entries.extend(row);
            index.insert(key, (start, entries.len() as u32));
        }
        PosTagger {
            tags,
            flags: opts.flags,
            tagdict,
            lexicon,
            closed,
            index,
            entries,
            decoder: DEFAULT_DECODER,
        }
    }
}
