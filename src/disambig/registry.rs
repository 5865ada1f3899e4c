//! The method registry: every method `--method` accepts, what it needs,
//! and how it is built from [`Resources`].
//!
//! A method is one [`Method`] value in [`METHODS`] plus the file that
//! implements it. A [`MethodSpec`] is what `--method` parses into — one
//! method or a back-off chain (`knn,nb,mfs`) — with the run-time options
//! every method shares; [`MethodSpec::build`] turns it into one
//! [`Disambiguator`], loading what the methods need once.
//!
//! ```
//! use wsd::disambig::MethodSpec;
//! let spec: MethodSpec = "nb,mfs".parse().unwrap();
//! assert_eq!(spec.to_string(), "nb,mfs");
//! assert!(spec.needs_model());
//! assert!("mfs,nope".parse::<MethodSpec>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::context::Window;
use super::discourse::{OneSensePerDiscourse, Propagation};
use super::knn::{Knn, KnnOptions};
use super::lesk::{ExtendedLesk, ExtendedLeskOptions, Lesk, LeskOptions};
use super::naive_bayes::NaiveBayes;
use super::similarity::{SimilarityOptions, SimilarityWsd};
use super::{Chain, Disambiguator, FirstSense};
use crate::encoder::Precision;
use crate::resources::Resources;
use crate::train::{self, TrainJob};
use crate::wordnet::similarity::Measure;
use crate::{Error, Result};

/// What a method needs besides WordNet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Need {
    /// A trained model file (`wsd train --method NAME`).
    Model,
    /// The encoder checkpoint (`--encoder DIR`).
    Encoder,
    /// SemCor (`--semcor DIR`).
    Semcor,
    /// Optionally an IC table (`--ic FILE`).
    Ic,
}

/// One registered method.
pub struct Method {
    /// The name `--method` takes.
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub summary: &'static str,
    /// What it needs besides WordNet.
    pub needs: &'static [Need],
    /// Build it.
    build: fn(&Resources, &MethodOptions) -> Result<Box<dyn Disambiguator>>,
    /// Train its model (methods that need one), returning a summary line.
    train: Option<fn(&Resources, &TrainJob<'_>) -> Result<String>>,
}

impl Method {
    /// Does `wsd train --method NAME` train a model for it?
    pub fn trains(&self) -> bool {
        self.train.is_some()
    }

    /// Train its model (see [`crate::train`]); an error for methods
    /// without one.
    pub fn train(&self, res: &Resources, job: &TrainJob<'_>) -> Result<String> {
        match self.train {
            Some(train) => train(res, job),
            None => Err(Error::BadMethodSpec {
                spec: self.name.to_string(),
                msg: format!(
                    "{} has nothing to train; trainable: {}",
                    self.name,
                    trainable().join(", ")
                ),
            }),
        }
    }

    /// The registered method called `name`.
    pub fn by_name(name: &str) -> Result<&'static Method> {
        METHODS
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| Error::UnknownMethod {
                name: name.to_string(),
                known: names().join(", "),
            })
    }

    /// Build it with `options`.
    pub fn build(
        &self,
        res: &Resources,
        options: &MethodOptions,
    ) -> Result<Box<dyn Disambiguator>> {
        (self.build)(res, options)
    }
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for Method {
    fn eq(&self, other: &Method) -> bool {
        self.name == other.name
    }
}

/// Every method, in the order `--help` lists them.
pub static METHODS: &[Method] = &[
    Method {
        name: "mfs",
        summary: "WordNet's first sense (ordered by SemCor tag counts)",
        needs: &[],
        build: |_, _| Ok(Box::new(FirstSense)),
        train: None,
    },
    Method {
        name: "mfs-semcor",
        summary: "most frequent sense on SemCor's train split, then mfs",
        needs: &[Need::Semcor],
        build: |res, _| {
            Ok(Box::new(Chain::new(vec![
                Box::new(res.semcor_mfs()?.clone()),
                Box::new(FirstSense),
            ])))
        },
        train: None,
    },
    Method {
        name: "lesk",
        summary: "simplified Lesk: context stems shared with each gloss",
        needs: &[],
        build: |_, o| {
            Ok(Box::new(Lesk::new(LeskOptions {
                window: o.window,
                ..Default::default()
            })))
        },
        train: None,
    },
    Method {
        name: "lesk-ext",
        summary: "extended Lesk: related synsets' glosses too, a prior",
        needs: &[],
        build: |_, o| {
            Ok(Box::new(ExtendedLesk::new(ExtendedLeskOptions {
                window: o.window,
                ..Default::default()
            })))
        },
        train: None,
    },
    Method {
        name: "nb",
        summary: "Naive Bayes per lemma (SemCor); abstains on rare ones",
        needs: &[Need::Model],
        build: |res, _| {
            let path = res.model_path("nb")?;
            Ok(Box::new(NaiveBayes::load(&path, res.inventory()?)?))
        },
        train: Some(train::naive_bayes),
    },
    Method {
        name: "sim-path",
        summary: "closest sense (path) to the context",
        needs: &[],
        build: |res, o| similarity(res, o, Measure::Path),
        train: None,
    },
    Method {
        name: "sim-wup",
        summary: "closest sense (Wu-Palmer) to the context",
        needs: &[],
        build: |res, o| similarity(res, o, Measure::Wup),
        train: None,
    },
    Method {
        name: "sim-lch",
        summary: "closest sense (Leacock-Chodorow) to the context",
        needs: &[],
        build: |res, o| similarity(res, o, Measure::Lch),
        train: None,
    },
    Method {
        name: "sim-res",
        summary: "closest sense (Resnik IC) to the context",
        needs: &[Need::Ic],
        build: |res, o| similarity(res, o, Measure::Res),
        train: None,
    },
    Method {
        name: "sim-jcn",
        summary: "closest sense (Jiang-Conrath IC) to the context",
        needs: &[Need::Ic],
        build: |res, o| similarity(res, o, Measure::Jcn),
        train: None,
    },
    Method {
        name: "sim-lin",
        summary: "closest sense (Lin IC) to the context",
        needs: &[Need::Ic],
        build: |res, o| similarity(res, o, Measure::Lin),
        train: None,
    },
    Method {
        name: "knn",
        summary: "nearest sense vector of the attention encoder",
        needs: &[Need::Model, Need::Encoder],
        build: |res, o| {
            let path = res.model_path("knn")?;
            let inv = res.inventory()?;
            let encoder = res.encoder_preferring(o.encoder_precision.unwrap_or(KNN_PRECISION))?;
            Ok(Box::new(Knn::load(&path, inv, encoder.clone(), o.knn)?))
        },
        train: Some(train::knn),
    },
    Method {
        name: "ens",
        summary: "learned combination of knn, nb, lesk-ext and a prior",
        needs: &[Need::Model, Need::Encoder],
        build: |res, o| {
            let inv = res.inventory()?;
            let by = super::ens::METHOD;
            let knn = res.model_of_kind(super::knn::METHOD, by)?;
            let nb = res.model_of_kind(super::naive_bayes::METHOD, by)?;
            let path = res.model_of_kind(by, by)?;
            let model = super::ens::EnsModel::load(&path, inv)?;
            // the encoder in the precision the features were fitted with,
            // unless --encoder-precision says otherwise
            let wanted = model.params.precision().unwrap_or_default();
            let encoder = res
                .encoder_preferring(o.encoder_precision.unwrap_or(wanted))?
                .clone();
            let knn = Knn::load(&knn, inv, encoder, KnnOptions::default())?;
            let nb = NaiveBayes::load(&nb, inv)?;
            let ens = super::ens::Ens::new(knn, nb, model, &path)?;
            if let Some(w) = ens.precision_mismatch(&path) {
                res.notice(&w);
            }
            Ok(Box::new(ens))
        },
        train: Some(train::ens),
    },
];

fn similarity(
    res: &Resources,
    o: &MethodOptions,
    measure: Measure,
) -> Result<Box<dyn Disambiguator>> {
    Ok(Box::new(SimilarityWsd::new(SimilarityOptions {
        measure,
        window: o.window,
        ic: res.ic()?.cloned(),
        ..Default::default()
    })))
}

/// The encoder precision knn runs in unless told otherwise: int8 is as
/// accurate against the f32 centroids (SemEval-2007 66.4 against 65.7,
/// SemCor test 72.9 against 72.8) and ~14% cheaper.
pub const KNN_PRECISION: Precision = Precision::Int8;

/// The encoder precision the build of `spec`'s first encoder method will
/// ask for (knn's [`KNN_PRECISION`], ens's model's), for a caller that
/// loads the encoder ahead of the build to overlap it with other loads;
/// `None` when the ens model cannot be read (the build says why) or no
/// method needs the encoder.
pub fn preferred_precision(res: &Resources, spec: &MethodSpec) -> Option<Precision> {
    let m = spec
        .methods()
        .iter()
        .find(|m| m.needs.contains(&Need::Encoder))?;
    if m.name != super::ens::METHOD {
        return Some(KNN_PRECISION);
    }
    let path = res.model_of_kind(m.name, m.name).ok()?;
    // the header alone: the build reads (and checks) the whole model
    let header = crate::model_io::read_header(&path).ok()?;
    let params: super::ens::EnsParams = serde_json::from_value(header.params).ok()?;
    params.precision()
}

/// The registered names, in order.
pub fn names() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.name).collect()
}

/// The names of the methods `wsd train` trains (and `pos`, the tagger).
pub fn trainable() -> Vec<&'static str> {
    let mut n: Vec<&str> = METHODS
        .iter()
        .filter(|m| m.trains())
        .map(|m| m.name)
        .collect();
    n.push("pos");
    n
}

/// The method that ends the default chain (see [`MethodSpec::default_for`]).
pub const DEFAULT_UNTRAINED: &str = "lesk-ext";

/// Run-time options shared by every method (each uses those it knows).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MethodOptions {
    /// Context of lesk, lesk-ext and sim-*.
    pub window: Window,
    /// Wrap the method (or chain) in one sense per discourse.
    pub one_sense_per_discourse: bool,
    /// Options of knn.
    pub knn: KnnOptions,
    /// The encoder precision every encoder method of a chain runs in:
    /// [`MethodSpec::build`] sets it to the first encoder method's
    /// ([`preferred_precision`]), so a chain encodes each sentence once;
    /// `None` before (each method its own: knn's [`KNN_PRECISION`], ens's
    /// model's).
    pub encoder_precision: Option<Precision>,
}

/// A method or back-off chain by name (`knn,nb,mfs`), with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodSpec {
    methods: Vec<&'static Method>,
    /// Options of the run.
    pub options: MethodOptions,
}

impl MethodSpec {
    /// A spec of registered methods, in chain order.
    pub fn new(methods: Vec<&'static Method>, options: MethodOptions) -> Result<MethodSpec> {
        if methods.is_empty() {
            return Err(Error::BadMethodSpec {
                spec: String::new(),
                msg: "no method".into(),
            });
        }
        Ok(MethodSpec { methods, options })
    }

    /// The methods, in chain order.
    pub fn methods(&self) -> &[&'static Method] {
        &self.methods
    }

    /// With other options.
    pub fn with_options(mut self, options: MethodOptions) -> MethodSpec {
        self.options = options;
        self
    }

    /// Does any method of the chain need a trained model?
    pub fn needs_model(&self) -> bool {
        self.methods.iter().any(|m| m.trains())
    }

    /// The precision the chain's encoder methods run in: the options', else
    /// the first encoder method's ([`preferred_precision`]); what
    /// [`MethodSpec::build`] gives them and what the text pipeline's
    /// category probe encodes with, so the vectors it keeps are theirs.
    pub fn encoder_precision(&self, res: &Resources) -> Option<Precision> {
        self.options
            .encoder_precision
            .or_else(|| preferred_precision(res, self))
    }

    /// Build the method or chain, loading what it needs from `res`.
    pub fn build(&self, res: &Resources) -> Result<Box<dyn Disambiguator>> {
        let options = MethodOptions {
            encoder_precision: self.encoder_precision(res),
            ..self.options
        };
        let mut built = Vec::with_capacity(self.methods.len());
        for m in &self.methods {
            built.push(m.build(res, &options)?);
        }
        let method: Box<dyn Disambiguator> = if built.len() == 1 {
            built.pop().expect("one method")
        } else {
            Box::new(Chain::new(built))
        };
        Ok(if self.options.one_sense_per_discourse {
            Box::new(OneSensePerDiscourse::new(method, Propagation::First))
        } else {
            method
        })
    }

    /// The default chain for `res`: the trained methods whose models are
    /// at hand (most accurate first), then [`DEFAULT_UNTRAINED`], the most
    /// accurate method that needs no model and uses the context; and why,
    /// for stderr.
    ///
    /// On the SemEval-2007 dev set and SemCor's test split (train-split
    /// models): `lesk-ext` 57.1 / 73.7 against `mfs` 55.2 / 73.3, and
    /// `nb,lesk-ext` 62.2 / 75.4 against `nb,mfs` 61.1 / 75.0; `ens`
    /// (which reads the knn and nb models too) above both, so it leads
    /// when its model is at hand.
    pub fn default_for(res: &Resources, options: MethodOptions) -> (MethodSpec, String) {
        let found: Vec<&'static Method> = ["ens", "knn", "nb"]
            .iter()
            .filter(|n| res.has_model(n))
            // ens without its base models would fail to build: leave it out.
            .filter(|n| **n != "ens" || (res.has_model("knn") && res.has_model("nb")))
            .filter_map(|n| Method::by_name(n).ok())
            .collect();
        let why = if found.is_empty() {
            format!(
                "the default without a trained model: it uses the context and needs none; train one with `wsd train --method nb` for {}",
                "nb,lesk-ext"
            )
        } else {
            let names: Vec<&str> = found.iter().map(|m| m.name).collect();
            format!(
                "the default with the trained model(s) found for {}",
                names.join(", ")
            )
        };
        let mut methods = found;
        methods.push(Method::by_name(DEFAULT_UNTRAINED).expect("registered"));
        (MethodSpec { methods, options }, why)
    }
}

impl FromStr for MethodSpec {
    type Err = Error;

    /// `mfs`, `nb,mfs`, … (names separated by commas; spaces around a name
    /// are ignored; an empty name is an error).
    fn from_str(s: &str) -> Result<MethodSpec> {
        let mut methods = Vec::new();
        for name in s.split(',').map(str::trim) {
            if name.is_empty() {
                return Err(Error::BadMethodSpec {
                    spec: s.to_string(),
                    msg: "empty method name (use e.g. nb,mfs)".into(),
                });
            }
            methods.push(Method::by_name(name)?);
        }
        MethodSpec::new(methods, MethodOptions::default())
    }
}

impl fmt::Display for MethodSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.methods.iter().map(|m| m.name).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--help` lists the methods as `  NAME        SUMMARY` under clap's
    /// 10-column indent: a summary of at most 56 characters keeps each on
    /// one line of an 80-column terminal (clap wraps longer ones to the
    /// left margin, under the names).
    #[test]
    fn summaries_fit_one_help_line() {
        for m in METHODS {
            assert!(
                m.summary.chars().count() <= 56,
                "{}: {:?} is {} characters",
                m.name,
                m.summary,
                m.summary.chars().count()
            );
        }
    }

    #[test]
    fn every_method_name_parses_and_chains_keep_their_order() {
        for m in METHODS {
            let spec: MethodSpec = m.name.parse().unwrap();
            assert_eq!(spec.methods(), &[m]);
        }
        let spec: MethodSpec = " knn , nb,mfs".parse().unwrap();
        assert_eq!(spec.to_string(), "knn,nb,mfs");
        assert!(spec.needs_model());
        assert!(!"lesk,mfs".parse::<MethodSpec>().unwrap().needs_model());
    }

    #[test]
    fn bad_specs_are_refused_with_the_known_names() {
        let e = "mfs,".parse::<MethodSpec>().unwrap_err().to_string();
        assert!(e.contains("empty method name"), "{e}");
        let e = "nope".parse::<MethodSpec>().unwrap_err().to_string();
        assert!(e.contains("unknown method \"nope\""), "{e}");
        assert!(e.contains("lesk-ext") && e.contains("knn"), "{e}");
        assert!("".parse::<MethodSpec>().is_err());
    }

    #[test]
    fn names_are_unique_and_trained_methods_need_models() {
        let mut n = names();
        n.sort();
        n.dedup();
        assert_eq!(n.len(), METHODS.len());
        assert!(Method::by_name("nb").unwrap().trains());
        assert!(Method::by_name("knn").unwrap().trains());
        assert!(!Method::by_name("lesk").unwrap().trains());
    }
}
