//! Helpers shared by the fuzz targets in `src/bin/`: the miniature WordNet
//! of the test fixtures (targets that need an inventory load it once per
//! process, in well under a millisecond per 1000 executions) and a private
//! scratch folder for parsers that read a path rather than bytes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wsd::wordnet::Inventory;

/// `tests/fixtures/mini-wordnet`, a 27-synset WordNet.
pub fn mini_dict() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/mini-wordnet"
    ))
}

/// The miniature inventory, loaded once per process.
pub fn mini_inventory() -> &'static Inventory {
    static INV: OnceLock<Inventory> = OnceLock::new();
    INV.get_or_init(|| Inventory::load(mini_dict()).expect("the mini WordNet loads"))
}

/// A scratch folder of this process, `/tmp/fuzz-scratch-<pid>` (AFL runs
/// one target process at a time per fuzzer; each cleans up nothing, the
/// script removes the folders after a run).
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("fuzz-scratch-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("scratch folder");
        d
    })
}

/// Write `data` to `name` in the scratch folder and return its path.
pub fn scratch_file(name: &str, data: &[u8]) -> PathBuf {
    let p = scratch().join(name);
    std::fs::write(&p, data).expect("scratch file");
    p
}
