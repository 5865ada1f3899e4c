//! The evaluation framework's XML.
use wsd::corpus::parse_xml;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = std::str::from_utf8(data) {
            let _ = parse_xml(s, "x.data.xml");
        }
    });
}
