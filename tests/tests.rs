//! Integration tests: the real `wsd` binary and the library on the real
//! data that `scripts/fetch-data.sh` puts in place (`scripts/test.sh` runs
//! it first).
//!
//! * `wordnet` — the inventory, ids, morphy, `wsd senses` / `wsd synset`, bad input.
//! * `mini_wordnet` — parsing, ids, morphy and similarity on the miniature dict
//!   `tests/fixtures/mini-wordnet` (fast; needs none of the fetched data).
//! * `corpus` — SemCor and XML readers, the scorer, `wsd eval` / `wsd score`, MFS.
//! * `front_end` — targets, multiwords on evidence, lemmas, `--mwe`, the `--raw` alignment.
//! * `tag` — `wsd tag` on plain text: pipeline, formats, streaming, bad input.
//! * `records` — `wsd tag --input-format jsonl`: records in and out, error
//!   records, output independent of threads, neighbours and splits.
//! * `knowledge` — similarity measures against NLTK, IC tables, `wsd similarity`,
//!   Lesk, extended Lesk and similarity-based disambiguation.
//! * `nb` — Naive Bayes trained on SemCor, scored on SemCor test and SemEval-2007.
//! * `own_data` — training from evaluation-framework XML + keys, `wsd score` on
//!   any id form with its warnings, key-file ids independent of the typed path.
//! * `library` — the library used from a program: typed errors, text
//!   tagged in memory.
//! * `knn` — kNN over encoder sense vectors (a small SemCor slice) and `wsd embed`.
//! * `ens` — the learned combination trained on that slice: eval, chains,
//!   `--explain`, missing base models, corrupted files.
//! * `report` — `wsd compare`, `eval --report/--errors`, `wsd errors`: the HTML
//!   report parsed back against its JSON, the error TSV, the front-end breakdown.
//! * `answers` — `tag --top/--explain`, `eval --top/--calibration`, `wsd
//!   calibrate`, and the hand-judged paragraph test (issue 12).
//! * `readme` — every console example of README.md, run and compared.
//! * `props` — property tests: the parsers never panic on arbitrary input.
//! * `faults` — fault injection: damaged dictionaries, hostile files, odd
//!   options, signals during writes, a full disk (issue 16).

mod answers;
mod corpus;
mod ens;
mod faults;
mod front_end;
mod knn;
mod knowledge;
mod library;
mod mini_wordnet;
mod nb;
mod own_data;
mod props;
mod readme;
mod records;
mod report;
mod tag;
mod util;
mod wordnet;
