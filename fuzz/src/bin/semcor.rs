//! SemCor tagfiles.
use wsd::corpus::semcor::parse_semcor;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            let _ = parse_semcor(s, "br-zz", "brown1/br-zz", "br-zz");
        }
    });
}
