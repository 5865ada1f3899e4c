//! Integration tests: the real `wsd` binary and the library on the real
//! data that `scripts/fetch-data.sh` puts in place (`scripts/test.sh` runs
//! it first).
//!
//! * `wordnet` — the inventory, ids, morphy, `wsd senses` / `wsd synset`, bad input.
//! * `corpus` — SemCor and XML readers, the scorer, `wsd eval` / `wsd score`, MFS.
//! * `tag` — `wsd tag` on plain text: pipeline, formats, streaming, bad input.
//! * `knowledge` — similarity measures against NLTK, IC tables, `wsd similarity`,
//!   Lesk, extended Lesk and similarity-based disambiguation.
//! * `nb` — Naive Bayes trained on SemCor, scored on SemCor test and SemEval-2007.
//! * `knn` — kNN over encoder sense vectors (a small SemCor slice) and `wsd embed`.
//! * `props` — property tests: the parsers never panic on arbitrary input.
//! * `faults` — fault injection: damaged dictionaries, hostile files, odd
//!   options, signals during writes, a full disk (issue 16).

mod corpus;
mod faults;
mod knn;
mod knowledge;
mod nb;
mod props;
mod tag;
mod util;
mod wordnet;
