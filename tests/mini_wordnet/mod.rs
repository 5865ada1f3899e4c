//! Fast tests of the WordNet code on the miniature dict folder
//! `tests/fixtures/mini-wordnet` (written by `scripts/make_mini_wordnet.py`;
//! 27 synsets, no real data needed): parsing, ids, morphy, similarity, and
//! `wsd senses` / `wsd synset` on it.
//!
//! The taxonomy (noun depths in brackets, `@i` an instance hypernym):
//!
//! ```text
//! entity [0]                                   00000299-n
//! ├── physical_entity [1]                      00000471-n
//! │   ├── object, physical_object [2]          00000795-n
//! │   │   ├── slope, incline, side [3]         00001910-n
//! │   │   │   └── bank.n.01 "sloping land" [4] 00002110-n  bank%1:17:01::
//! │   │   ├── bank.n.03 "a long ridge" [3]     00002319-n  bank%1:17:00::
//! │   │   ├── body_of_water, water [3]         00002414-n  (water.n.02)
//! │   │   │   └── river [4]                    00002665-n
//! │   │   │       └── @i Thames [5]            00002829-n
//! │   │   └── goose [3]                        00003423-n
//! │   ├── liquid [2]                           00002973-n
//! │   │   └── water, H2O                       00003125-n  (water.n.01)
//! │   │       └── seawater, saltwater, brine   00003585-n  (min depth 3, max 4)
//! │   └── water, H2O (second hypernym: min depth 2, max depth 3)
//! └── abstraction, abstract_entity [1]         00000624-n
//!     └── group, grouping [2]                  00001052-n
//!         └── institution [3]                  00001186-n
//!             └── financial_institution [4]    00001335-n
//!                 └── depository_financial_institution, bank [5]
//!                                              00001602-n  bank%1:14:00:: (bank.n.02)
//!
//! verbs: transact.v.01 00000299-v  <- @ bank.v.01 00000381-v (frames 2, 22);
//!        happen, occur, take_place 00000556-v (no hypernym)
//! adjectives: alcoholic.a.01 00000299-a <- & wet.s.01 00000414-s (wet%5:00:00:alcoholic:00);
//!        wet.a.01 00000576-a (wet%3:00:01::) <- & damp.s.01 00000743-s
//!        (damp%5:00:00:wet:01); wet.a.01 ! dry.a.01 00000901-a
//! adverb: wetly.r.01 00000299-r (\ wet.a.01)
//! ```

mod binary;
mod ids;
mod morphy;
mod parsing;
mod similarity;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::{ok, root, run, wsd};
use wsd::wordnet::morphy::morphy;
use wsd::wordnet::similarity::{ic_from_keys, Similarity};
use wsd::wordnet::{
    canonical_name, hypernym_paths, lexname, lookup_senses, offset_string, resolve_id, sense_key,
    Dictionary, Frame, Inventory, Lookup, PointerKind, Pos, SynsetId, SynsetType,
};
use wsd::Error;

fn mini() -> PathBuf {
    root().join("tests/fixtures/mini-wordnet")
}

fn inv() -> &'static Inventory {
    static INV: OnceLock<Inventory> = OnceLock::new();
    INV.get_or_init(|| Inventory::load(&mini()).expect("the mini WordNet loads"))
}

fn lookup() -> Lookup {
    Lookup::open(Some(&mini())).expect("the mini WordNet opens")
}

fn n(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Noun,
        offset,
    }
}
fn v(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Verb,
        offset,
    }
}
fn a(offset: u32) -> SynsetId {
    SynsetId {
        pos: Pos::Adj,
        offset,
    }
}

const ENTITY: u32 = 299;
const PHYSICAL: u32 = 471;
const ABSTRACTION: u32 = 624;
const OBJECT: u32 = 795;
const GROUP: u32 = 1052;
const INSTITUTION: u32 = 1186;
const FINANCIAL: u32 = 1335;
const DEPOSITORY: u32 = 1602;
const SLOPE: u32 = 1910;
const BANK_SLOPE: u32 = 2110;
const BANK_RIDGE: u32 = 2319;
const BODY_OF_WATER: u32 = 2414;
const RIVER: u32 = 2665;
const THAMES: u32 = 2829;
const LIQUID: u32 = 2973;
const WATER: u32 = 3125;
const GOOSE: u32 = 3423;
const SEAWATER: u32 = 3585;
const TRANSACT: u32 = 299;
const BANK_V: u32 = 381;
const HAPPEN: u32 = 556;
const ALCOHOLIC: u32 = 299;
const WET_ALCOHOL: u32 = 414;
const WET: u32 = 576;
const DAMP: u32 = 743;
const DRY: u32 = 901;

fn close(got: Option<f64>, want: f64) {
    let g = got.unwrap_or_else(|| panic!("no value, want {want}"));
    assert!((g - want).abs() < 1e-12, "got {g}, want {want}");
}
