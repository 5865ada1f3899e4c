//! Words broken at a line end by a hyphen (`well-`⏎`known`), or by a
//! soft hyphen anywhere, joined back into one token (see the module docs
//! of [`super`]).

use super::{RawToken, MAX_TOKEN_BYTES};

/// Hyphens that may break a word at a line end: ASCII, Unicode's hyphen
/// (U+2010) and the soft hyphen (U+00AD, invisible unless the line breaks).
fn is_break_hyphen(t: &str) -> bool {
    matches!(t, "-" | "\u{2010}" | "\u{AD}")
}

/// Does the token end (`at_end`) or start with a letter?
fn letter_at(t: &str, at_end: bool) -> bool {
    let c = if at_end {
        t.chars().next_back()
    } else {
        t.chars().next()
    };
    c.is_some_and(char::is_alphabetic)
}

/// Join the pieces of words broken by a hyphen at a line end, or by a soft
/// hyphen anywhere: `word` `-` ⏎ `word` (one line break, the second word
/// in lower case and no conjunction) and `word` `U+00AD` `word` become one
/// token spanning them (see the module documentation).
pub(super) fn join_broken_words(text: &str, tokens: Vec<RawToken>) -> Vec<RawToken> {
    let joins = |a: &RawToken, h: &RawToken, b: &RawToken| {
        if a.end != h.start || !is_break_hyphen(&h.text) || !letter_at(&a.text, true) {
            return false;
        }
        if !letter_at(&b.text, false) || b.end - a.start > MAX_TOKEN_BYTES {
            return false;
        }
        let gap = &text[h.end..b.start];
        if gap.is_empty() {
            // Only a soft hyphen joins without a break (`con\u{AD}tinued`);
            // the word pattern keeps other internal hyphens already.
            return h.text == "\u{AD}";
        }
        gap.matches('\n').count() == 1
            && gap
                .chars()
                .all(|c| c == '\n' || c == '\r' || c == ' ' || c == '\t')
            && (b.text.starts_with(char::is_lowercase)
                || a.text.starts_with(char::is_uppercase) && b.text.starts_with(char::is_uppercase))
            && !matches!(b.text.as_str(), "and" | "or" | "nor" | "to")
    };
    if !tokens.windows(3).any(|w| joins(&w[0], &w[1], &w[2])) {
        return tokens;
    }
    let mut out: Vec<RawToken> = Vec::with_capacity(tokens.len());
    let mut rest = tokens.into_iter().peekable();
    while let Some(t) = rest.next() {
        out.push(t);
        let n = out.len();
        // `a` `-` are the last two pushed; is the next one `b`?
        if n >= 2 {
            if let Some(b) = rest.peek() {
                if joins(&out[n - 2], &out[n - 1], b) {
                    let b = rest.next().expect("peeked");
                    out.truncate(n - 1);
                    let a = out.pop().expect("two tokens");
                    out.push(RawToken::new(text, a.start, b.end));
                }
            }
        }
    }
    out
}
