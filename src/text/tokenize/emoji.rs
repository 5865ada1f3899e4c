//! Emoji as single tokens: a pictograph with its variation selector,
//! skin tone and the pictographs a zero-width joiner glues to it, or a
//! flag's pair of regional indicators (see the module docs of
//! [`super`]).

use std::sync::OnceLock;

use regex::Regex;

use super::patterns;

/// The zero-width joiner, which glues pictographs into one emoji.
pub(super) const ZWJ: char = '\u{200D}';

/// Is the zero-width joiner at byte `i` inside an emoji: a pictograph (or
/// its variation selector or skin tone) before it, a pictograph after?
pub(super) fn joins_emoji(text: &str, i: usize) -> bool {
    static PICTOGRAPH: OnceLock<Regex> = OnceLock::new();
    let pictograph = PICTOGRAPH.get_or_init(|| {
        Regex::new(r"^\p{Extended_Pictographic}$").expect("pictograph pattern compiles")
    });
    let is_pictograph = |c: char| pictograph.is_match(c.encode_utf8(&mut [0; 4]));
    let before = text[..i].chars().next_back();
    let after = text[i + ZWJ.len_utf8()..].chars().next();
    before.is_some_and(|c| is_pictograph(c) || matches!(c, '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}'))
        && after.is_some_and(is_pictograph)
}

/// Is `token` an emoji (as the tokeniser keeps one, see the module doc)?
/// Not the signs that are also pictographs but are written inside text
/// (`©`, `®`, `™`).
pub fn is_emoji(token: &str) -> bool {
    !token.is_ascii()
        && !matches!(token, "\u{A9}" | "\u{AE}" | "\u{2122}")
        && patterns()
            .emoji
            .find(token)
            .is_some_and(|m| m.end() == token.len())
}
