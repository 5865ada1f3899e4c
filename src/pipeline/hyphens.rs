//! Words hyphenated at a line end, read as WordNet writes them.
//!
//! Hard-wrapped and PDF-extracted text breaks long words at a line end
//! with a hyphen, and the hyphen may be the word's own (`well-`⏎`known`,
//! `state-`⏎`owned`) or only the typesetter's (`con-`⏎`tinued`,
//! `under-`⏎`stand`). The tokeniser keeps such a word one token (see
//! [`crate::text::tokenize()`]) and [`model_form`] reads it with its
//! hyphen; [`line_break_form`] then asks WordNet which it is.

use std::borrow::Cow;

use crate::text::{is_stop_word, model_form};
use crate::wordnet::{Inventory, Pos};

/// The form the models read for a token broken by a hyphen at a line end
/// (`raw` as written, `form` its [`model_form`]): with the hyphen when
/// WordNet has the hyphenated word (`well-known`), else without when
/// WordNet has the word written solid (`continued`, `understand`), else
/// with it when both halves are words (`state-owned`) or the first half
/// is itself hyphenated (`out-of-`⏎`bounds`), else solid (a name
/// or a word WordNet lacks, broken mid-syllable). `form` unchanged for any
/// other token.
pub fn line_break_form<'t>(inv: &Inventory, raw: &str, form: Cow<'t, str>) -> Cow<'t, str> {
    let Some((left, right)) = split_at_break(raw) else {
        return form;
    };
    let (left, right) = (model_form(left), model_form(right));
    let hyphenated = format!("{left}-{right}");
    let solid = format!("{left}{right}");
    let known = |w: &str| {
        let lower = w.to_lowercase();
        is_stop_word(&lower)
            || [w, lower.as_str()]
                .iter()
                .any(|w| Pos::ALL.iter().any(|&p| !inv.morphy(w, p).is_empty()))
    };
    if known(&hyphenated) {
        return Cow::Owned(hyphenated);
    }
    if known(&solid) {
        return Cow::Owned(solid);
    }
    if left.contains('-') || known(&left) && known(&right) {
        Cow::Owned(hyphenated)
    } else {
        Cow::Owned(solid)
    }
}

/// The two halves of a word broken once by a hyphen (ASCII or U+2010)
/// and a line break: `well-\nknown` → (`well`, `known`). `None` for
/// anything else (no break, a soft hyphen, which [`model_form`] already
/// drops, or several breaks, left as [`model_form`] reads them).
fn split_at_break(raw: &str) -> Option<(&str, &str)> {
    if !raw.contains('\n') || raw.matches('\n').count() != 1 {
        return None;
    }
    let ws = raw.find(char::is_whitespace)?;
    let left = raw[..ws].strip_suffix(['-', '\u{2010}'])?;
    let right = raw[ws..].trim_start();
    (!left.is_empty() && !right.is_empty()).then_some((left, right))
}

#[cfg(test)]
mod tests {
    use super::split_at_break;

    #[test]
    fn halves_of_a_broken_word() {
        assert_eq!(split_at_break("well-\nknown"), Some(("well", "known")));
        assert_eq!(split_at_break("con-\r\n  tinued"), Some(("con", "tinued")));
        assert_eq!(split_at_break("co\u{2010}\nop"), Some(("co", "op")));
        assert_eq!(split_at_break("well-known"), None);
        assert_eq!(split_at_break("con\u{AD}\ntinued"), None);
        assert_eq!(split_at_break("ex-\ntra-\nordinary"), None);
    }
}
