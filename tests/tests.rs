//! Integration tests: the real `wsd` binary and the library on the real
//! data that `scripts/fetch-data.sh` puts in place (`scripts/test.sh` runs
//! it first).
//!
//! * `wordnet` — the inventory, ids, morphy, `wsd senses` / `wsd synset`, bad input.
//! * `nb` — Naive Bayes trained on SemCor, scored on SemCor test and SemEval-2007.

mod nb;
mod util;
mod wordnet;
