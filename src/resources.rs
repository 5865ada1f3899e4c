//! The resources a run needs, located once and loaded lazily.
//!
//! **Where things are.** One data home holds `wordnet/`, `corpora/` and
//! `models/`: `$WSD_HOME`, else `$XDG_DATA_HOME/wsd`, else
//! `~/.local/share/wsd` ([`data_home`]). A resource without an explicit
//! path is looked for there first, then relative to the working directory
//! (the repository layout `scripts/fetch-data.sh` makes), so every command
//! works from any folder once the data home is filled, and a repository
//! checkout keeps working as it is ([`locate`]). Trained models are
//! written to the data home's `models/` unless the working directory has a
//! `models/` folder of its own ([`models_dir`]).
//!
//! Every command that runs a method needs some of: the WordNet inventory,
//! the POS tagger (plain text), the encoder (knn), an information-content
//! table (sim-res/jcn/lin), SemCor's sense counts (mfs-semcor) and trained
//! model files. [`ResourcePaths`] says where each one is (the one place
//! that knows the default locations); [`Resources`] loads each on first
//! use and keeps it for the rest of the run, so a chain such as
//! `knn,nb,mfs-semcor` reads every file once.
//!
//! **When a missing POS model is trained.** Plain-text commands need the
//! tagger. If its file is missing, it is trained on SemCor's train split
//! and written there — but only when [`PosTraining::IfMissing`] is set
//! (the CLI sets it for `tag` and `eval --raw`) *and* SemCor is present;
//! otherwise a missing POS model is an error that says how to get one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::corpus::{read_semcor, Split};
use crate::disambig::CorpusMfs;
use crate::encoder::Encoder;
use crate::model_io;
use crate::pos::PosTagger;
use crate::wordnet::similarity::Ic;
use crate::wordnet::Inventory;
use crate::{Error, Result};

/// Default SemCor folder (relative to the data home or the working directory).
pub const DEFAULT_SEMCOR: &str = "corpora/semcor3.0";
/// Default evaluation-framework folder of the SemEval-2007 dev set.
pub const DEFAULT_SEMEVAL2007: &str = "corpora/wsd-eval/semeval2007";
/// Default folder of the evaluation framework's data sets (`wsd eval
/// --framework` without a folder): `scripts/fetch-data.sh` puts
/// SemEval-2007 there, and the framework's other sets when it downloads it.
pub const DEFAULT_FRAMEWORK: &str = "corpora/wsd-eval";
/// Default encoder folder.
pub const DEFAULT_ENCODER: &str = "models/all-MiniLM-L6-v2";
/// Default folder of trained models (`<method>.wsd`).
pub const DEFAULT_MODELS: &str = "models";

/// The data home: `$WSD_HOME`, else `$XDG_DATA_HOME/wsd`, else
/// `$HOME/.local/share/wsd` (`None` without any of these variables).
pub fn data_home() -> Option<PathBuf> {
    data_home_and_source().map(|(home, _)| home)
}

/// Which variable [`data_home`] came from, for messages: `$WSD_HOME`,
/// `$XDG_DATA_HOME/wsd` or `~/.local/share/wsd`.
pub fn data_home_source() -> Option<&'static str> {
    data_home_and_source().map(|(_, source)| source)
}

/// The data home and how [`data_home_source`] names where it came from.
fn data_home_and_source() -> Option<(PathBuf, &'static str)> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(h) = var("WSD_HOME") {
        return Some((PathBuf::from(h), "$WSD_HOME"));
    }
    if let Some(x) = var("XDG_DATA_HOME") {
        return Some((PathBuf::from(x).join("wsd"), "$XDG_DATA_HOME/wsd"));
    }
    var("HOME").map(|h| {
        (
            PathBuf::from(h).join(".local/share/wsd"),
            "~/.local/share/wsd; set $WSD_HOME to move it",
        )
    })
}

/// The places a data-relative path `rel` (`corpora/semcor3.0`) is looked
/// for, in order: the data home, then the working directory.
pub fn search_path(rel: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = data_home().into_iter().map(|h| h.join(rel)).collect();
    out.push(PathBuf::from(rel));
    out
}

/// Where the data home has `path` when it is relative and missing here
/// (`corpora/…` typed outside the checkout, as the README's commands
/// read), for a hint in the message.
pub fn data_home_has(path: &Path) -> Option<PathBuf> {
    if !path.is_relative() || path.exists() {
        return None;
    }
    let there = data_home()?.join(path);
    there.exists().then_some(there)
}

/// The first place of [`search_path`] where `rel` exists; else the first
/// candidate (where it would be fetched to), so messages name a real place.
pub fn locate(rel: &str) -> PathBuf {
    let places = search_path(rel);
    places
        .iter()
        .find(|p| p.exists())
        .cloned()
        .unwrap_or_else(|| places[0].clone())
}

/// The SemCor folder: `given`, else [`DEFAULT_SEMCOR`] where [`locate`]
/// finds it (the data home first).
pub fn semcor_dir(given: Option<&Path>) -> PathBuf {
    given.map_or_else(|| locate(DEFAULT_SEMCOR), Path::to_path_buf)
}

/// The evaluation framework's folder: `given`, else [`DEFAULT_FRAMEWORK`]
/// where [`locate`] finds it (the data home first).
pub fn framework_dir(given: Option<&Path>) -> PathBuf {
    given.map_or_else(|| locate(DEFAULT_FRAMEWORK), Path::to_path_buf)
}

/// The encoder folder: `given`, else [`DEFAULT_ENCODER`] where [`locate`]
/// finds it (the data home first).
pub fn encoder_dir(given: Option<&Path>) -> PathBuf {
    given.map_or_else(|| locate(DEFAULT_ENCODER), Path::to_path_buf)
}

/// Where trained models are written by default: `./models` when the working
/// directory has one (a repository checkout), else the data home's.
pub fn models_dir() -> PathBuf {
    let local = PathBuf::from(DEFAULT_MODELS);
    if local.is_dir() {
        return local;
    }
    data_home().map_or(local, |h| h.join(DEFAULT_MODELS))
}

/// Where each resource is. `None` means "the default".
#[derive(Clone, Debug, Default)]
pub struct ResourcePaths {
    /// WordNet dict folder (else `$WNSEARCHDIR`, `./wordnet/dict`,
    /// `/usr/share/wordnet`; see [`crate::wordnet::find_dict`]).
    pub wordnet: Option<PathBuf>,
    /// SemCor 3.0 folder.
    pub semcor: Option<PathBuf>,
    /// Encoder checkpoint folder.
    pub encoder: Option<PathBuf>,
    /// Arithmetic of the encoder's linear maps; `None`: not given, so
    /// the precision an ens model was fitted with, else the default
    /// ([`Resources::encoder_preferring`]).
    pub encoder_precision: Option<crate::encoder::Precision>,
    /// POS tagger model file.
    pub pos_model: Option<PathBuf>,
    /// Trained model files given explicitly; each file's header says which
    /// method it belongs to.
    pub models: Vec<PathBuf>,
    /// Information-content table for sim-res/jcn/lin (default: from
    /// WordNet's tag counts).
    pub ic: Option<PathBuf>,
}

impl ResourcePaths {
    /// The SemCor folder.
    pub fn semcor(&self) -> PathBuf {
        semcor_dir(self.semcor.as_deref())
    }

    /// The encoder folder.
    pub fn encoder(&self) -> PathBuf {
        encoder_dir(self.encoder.as_deref())
    }

    /// The POS model file.
    pub fn pos_model(&self) -> PathBuf {
        self.pos_model
            .clone()
            .unwrap_or_else(|| default_model_path("pos"))
    }
}

/// Where a trained model of `method` is looked for when no `--model`
/// names one: `<models>/<method>.wsd` — the first existing of the data
/// home's and the working directory's, else [`model_output_path`].
pub fn default_model_path(method: &str) -> PathBuf {
    let rel = format!("{DEFAULT_MODELS}/{method}.wsd");
    search_path(&rel)
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| model_output_path(method))
}

/// Where `wsd train` writes a model of `method` without `--output`:
/// `<method>.wsd` in [`models_dir`] (`./models` when there is one, as the
/// README says), whatever [`default_model_path`] would read.
pub fn model_output_path(method: &str) -> PathBuf {
    models_dir().join(format!("{method}.wsd"))
}

/// Whether a missing POS model may be trained (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PosTraining {
    /// A missing POS model is an error.
    #[default]
    Never,
    /// Train it on SemCor's train split and save it, when SemCor is there.
    IfMissing,
}

impl PosTraining {
    /// The rule for a run that reads plain text only when `raw` is set
    /// (`compare --raw`, `errors --raw`): train a missing model then only.
    pub fn when_raw(raw: bool) -> PosTraining {
        if raw {
            PosTraining::IfMissing
        } else {
            PosTraining::Never
        }
    }
}

/// The loaded resources of a run (see the module docs).
///
/// `Resources` is `Sync`: a thread may load one resource (`wsd tag` loads
/// the encoder and the method's models on a second thread while the
/// inventory and the POS tagger load) while another asks for it; the
/// second waits for that load instead of loading it again.
#[derive(Default)]
pub struct Resources {
    paths: ResourcePaths,
    pos_training: PosTraining,
    quiet: bool,
    inventory: Lazy<Inventory>,
    tagger: Lazy<PosTagger>,
    /// One encoder per precision (f32, int8): a chain's methods share the
    /// first encoder method's ([`crate::disambig::MethodSpec::build`]),
    /// methods built apart (`wsd compare`) each get the one they ask for.
    encoders: [Lazy<Arc<Encoder>>; 2],
    ic: Lazy<Arc<Ic>>,
    semcor_mfs: Lazy<Arc<CorpusMfs>>,
}

/// A value loaded on first use: [`OnceLock`] and a lock held during the
/// load, so that concurrent first calls load once (a failed load leaves
/// the cell empty, so the error is reported again on the next call).
struct Lazy<T> {
    cell: OnceLock<T>,
    loading: Mutex<()>,
}

impl<T> Default for Lazy<T> {
    fn default() -> Self {
        Lazy {
            cell: OnceLock::new(),
            loading: Mutex::new(()),
        }
    }
}

impl<T> Lazy<T> {
    /// The value, loading it with `load` if no one has yet.
    fn get_or_load(&self, load: impl FnOnce() -> Result<T>) -> Result<&T> {
        if let Some(v) = self.cell.get() {
            return Ok(v);
        }
        // a panicking load poisons nothing of value: the cell is still empty
        let _guard = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = self.cell.get() {
            return Ok(v);
        }
        let v = load()?;
        Ok(self.cell.get_or_init(|| v))
    }
}

impl Resources {
    /// Resources at `paths`, nothing loaded yet.
    pub fn new(paths: ResourcePaths) -> Resources {
        Resources {
            paths,
            ..Default::default()
        }
    }

    /// Allow or forbid training a missing POS model.
    pub fn with_pos_training(mut self, rule: PosTraining) -> Resources {
        self.pos_training = rule;
        self
    }

    /// Do not print notices (such as "training the POS model") on stderr.
    pub fn quiet(mut self, quiet: bool) -> Resources {
        self.quiet = quiet;
        self
    }

    /// Resources around an inventory already loaded (tests, library users).
    pub fn with_inventory(paths: ResourcePaths, inv: Inventory) -> Resources {
        let r = Resources::new(paths);
        let _ = r.inventory.cell.set(inv);
        r
    }

    /// Where everything is.
    pub fn paths(&self) -> &ResourcePaths {
        &self.paths
    }

    pub(crate) fn notice(&self, msg: &str) {
        if !self.quiet {
            eprintln!("wsd: {msg}");
        }
    }

    /// The WordNet inventory.
    pub fn inventory(&self) -> Result<&Inventory> {
        self.inventory.get_or_load(|| {
            let _t = crate::timing::phase("load WordNet");
            Inventory::open(self.paths.wordnet.as_deref())
        })
    }

    /// The encoder for training, `wsd embed` and a category probe without
    /// an encoder method: in the precision `--encoder-precision` gives,
    /// else f32 (whatever else is loaded).
    pub fn encoder(&self) -> Result<&Arc<Encoder>> {
        self.encoder_preferring(crate::encoder::Precision::default())
    }

    /// The encoder in the precision `--encoder-precision` gives, else in
    /// `preferred` (knn's int8, or the precision ens's model was fitted
    /// with: its features move with the vectors, so an ens model fitted on
    /// f32 vectors keeps answering as it was measured). Each precision is
    /// loaded once; the caller compares [`Encoder::precision`] with what it
    /// wanted only when `--encoder-precision` overrode it.
    pub fn encoder_preferring(
        &self,
        preferred: crate::encoder::Precision,
    ) -> Result<&Arc<Encoder>> {
        let precision = self.paths.encoder_precision.unwrap_or(preferred);
        let slot = match precision {
            crate::encoder::Precision::F32 => &self.encoders[0],
            crate::encoder::Precision::Int8 => &self.encoders[1],
        };
        slot.get_or_load(|| {
            let dir = self.paths.encoder();
            let _t = crate::timing::phase("load encoder");
            Encoder::load_with_precision(&dir, precision).map(Arc::new)
        })
    }

    /// The IC table for sim-res/jcn/lin: the `--ic` file, or `None` for
    /// the default (WordNet's own tag counts, computed by the method).
    pub fn ic(&self) -> Result<Option<&Arc<Ic>>> {
        let Some(path) = &self.paths.ic else {
            return Ok(None);
        };
        let inv = self.inventory()?;
        self.ic
            .get_or_load(|| Ic::read(inv, path).map(Arc::new))
            .map(Some)
    }

    /// Sense counts of SemCor's train split (for `mfs-semcor`).
    pub fn semcor_mfs(&self) -> Result<&Arc<CorpusMfs>> {
        self.semcor_mfs.get_or_load(|| {
            let docs = read_semcor(self.paths.semcor(), Split::Train)?;
            Ok(Arc::new(CorpusMfs::from_documents(&docs)))
        })
    }

    /// The POS tagger: the POS model file, trained first when missing and
    /// allowed (see the module docs).
    pub fn pos_tagger(&self) -> Result<&PosTagger> {
        self.tagger.get_or_load(|| {
            let path = self.paths.pos_model();
            // A model of an older format version is retrained like a
            // missing one when training is allowed (else loading it says
            // "retrain with `wsd train`").
            let outdated =
                path.exists() && matches!(model_io::read_header(&path), Err(Error::Version { .. }));
            let semcor = self.paths.semcor();
            let may_train =
                self.pos_training != PosTraining::Never && semcor.join("brown1").exists();
            if !path.exists() && !may_train {
                return Err(Error::MissingResource {
                    what: "POS model".into(),
                    path: path.clone(),
                    fix: format!(
                        "train it with `wsd train --method pos` (needs SemCor at {}; run scripts/fetch-data.sh)",
                        semcor.display()
                    ),
                });
            }
            if may_train && (outdated || !path.exists()) {
                // Fail before the training, not after it. The model is a
                // resource wsd trains for itself, so its folder is made
                // (a checkout's git-ignored models/ on a fresh clone).
                crate::atomic::create_folder_of(&path)?;
                crate::atomic::check_writable(&path)?;
                self.notice(&if outdated {
                    format!(
                        "the POS model at {} has an older format; retraining it on SemCor's train split (~30 s)",
                        path.display()
                    )
                } else {
                    format!(
                        "no POS model at {}; training one on SemCor's train split (once, ~30 s)",
                        path.display()
                    )
                });
                let docs = read_semcor(&semcor, Split::Train)?;
                let summary =
                    crate::train::pos_tagger(self, &docs, &Split::Train.to_string(), &path, &|_| {})?;
                self.notice(&summary);
            }
            let _t = crate::timing::phase("load POS model");
            let (_, body) = model_io::read_model(&path, "pos", None)?;
            PosTagger::from_bytes(&body).map_err(|e| model_io::at_path(e, &path))
        })
    }

    /// The model file for `method`: a `--model` whose header names it;
    /// else the one `--model` given (loading it says whose model it is);
    /// else `models/<method>.wsd` when it exists.
    pub fn model_path(&self, method: &str) -> Result<PathBuf> {
        for p in &self.paths.models {
            if model_io::read_header(p)?.method == method {
                return Ok(p.clone());
            }
        }
        if let [only] = self.paths.models.as_slice() {
            return Ok(only.clone());
        }
        let p = default_model_path(method);
        if p.exists() {
            return Ok(p);
        }
        Err(Error::MissingModel {
            method: method.to_string(),
            path: p,
        })
    }

    /// The model file of `method` when several kinds of model are needed
    /// at once (`ens` needs knn, nb and its own): the `--model` whose
    /// header names `method`, else `models/<method>.wsd` when it exists
    /// (unlike [`Resources::model_path`], a single `--model` of another
    /// method is not taken for it). The error names what is missing and
    /// `needed_by`, the method that needs it.
    pub fn model_of_kind(&self, method: &str, needed_by: &str) -> Result<PathBuf> {
        for p in &self.paths.models {
            if model_io::read_header(p)?.method == method {
                return Ok(p.clone());
            }
        }
        let p = default_model_path(method);
        if p.exists() {
            return Ok(p);
        }
        Err(Error::MissingResource {
            what: format!("{method} model (needed by {needed_by})"),
            path: p,
            fix: format!(
                "pass it with --model FILE (one --model per model: the {method} model {needed_by} was trained with), or train one with `wsd train --method {method}`"
            ),
        })
    }

    /// Is a model for `method` at hand (given with `--model` or at the
    /// default path)?
    pub fn has_model(&self, method: &str) -> bool {
        self.paths
            .models
            .iter()
            .any(|p| model_io::read_header(p).is_ok_and(|h| h.method == method))
            || default_model_path(method).exists()
    }
}

#[cfg(test)]
mod lazy_tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Threads asking at once for a value not loaded yet load it once.
    #[test]
    fn concurrent_first_calls_load_once() {
        let lazy: Lazy<usize> = Lazy::default();
        let loads = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let v = lazy
                        .get_or_load(|| {
                            loads.fetch_add(1, Ordering::SeqCst);
                            std::thread::sleep(std::time::Duration::from_millis(50));
                            Ok(7)
                        })
                        .unwrap();
                    assert_eq!(*v, 7);
                });
            }
        });
        assert_eq!(loads.load(Ordering::SeqCst), 1);
    }

    /// A failed load leaves nothing behind: the next call loads again.
    #[test]
    fn a_failed_load_is_tried_again() {
        let lazy: Lazy<usize> = Lazy::default();
        assert!(lazy.get_or_load(|| Err(Error::Shape("no".into()))).is_err());
        assert_eq!(*lazy.get_or_load(|| Ok(3)).unwrap(), 3);
    }
}
