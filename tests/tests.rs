//! Integration tests: the real `wsd` binary and the library on the real
//! data that `scripts/fetch-data.sh` puts in place (`scripts/test.sh` runs
//! it first).
//!
//! * `wordnet` — the inventory, ids, morphy, `wsd senses` / `wsd synset`, bad input.
//! * `knowledge` — similarity measures against NLTK, IC tables, `wsd similarity`,
//!   Lesk, extended Lesk and similarity-based disambiguation.

mod knowledge;
mod util;
mod wordnet;
