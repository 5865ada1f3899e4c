//! Naive Bayes model bodies (the bytes after the header).
use wsd::disambig::naive_bayes::NaiveBayes;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let _ = NaiveBayes::from_bytes(data);
    });
}
