//! Model files through the file readers: magic, version, header JSON,
//! method, WordNet checksum, body length and checksum, then each method's
//! loader (the mini WordNet's checksum is the one expected).
use wsd::disambig::knn::KnnModel;
use wsd::disambig::naive_bayes::NaiveBayes;
use wsd::model_io::{read_header, read_model};
use wsd::pos::PosTagger;
use wsd_fuzz::{mini_inventory, scratch_file};

fn main() {
    let inv = mini_inventory();
    afl::fuzz!(|data: &[u8]| {
        let p = scratch_file("m.wsd", data);
        let _ = read_header(&p);
        let _ = NaiveBayes::load(&p, inv);
        let _ = KnnModel::load(&p, inv);
        if let Ok((_, body)) = read_model(&p, "pos", None) {
            let _ = PosTagger::from_bytes(&body);
        }
    });
}
