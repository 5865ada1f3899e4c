//! Letters with diacritics, and words in other scripts than Latin.
//!
//! WordNet 3.0 writes every lemma in ASCII — `cafe`, `Zurich`, `naive`,
//! `facade`, `resume`, `deja_vu` — so a word typed with its accents
//! (`café`, `Zürich`, `naïve`) is not found as written.
//! [`fold_diacritics`] gives the ASCII spelling to look such a word up
//! again by: the encoder's accent stripping
//! ([`crate::encoder::wordpiece::strip_accents`]: Unicode NFD, then the
//! nonspacing marks dropped, `é` → `e`, `ü` → `u`, `ç` → `c`, `ñ` → `n`),
//! then the Latin letters that have no decomposition spelled as English
//! writes them (`ø` → `o`, `æ` → `ae`, `œ` → `oe`, `ß` → `ss`, `ł` → `l`,
//! `đ`/`ð` → `d`, `þ` → `th`). The token keeps its text as written; only
//! the lookup folds ([`crate::pipeline::accents`], [`super::choose_lemma`]).
//!
//! A word with no Latin letter at all (`Москве`, `Αθήνα`, `東京`;
//! [`has_latin_letter`]) is no English word, and no English name either:
//! the name rules, which would make any capitalised word WordNet lacks a
//! `person`, leave it alone.

use crate::encoder::wordpiece::strip_accents;

/// The ASCII spelling of a Latin letter that Unicode does not decompose
/// into a base letter and a mark (so accent stripping keeps it).
fn undecomposed(c: char) -> Option<&'static str> {
    Some(match c {
        'ø' => "o",
        'Ø' => "O",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'ß' => "ss",
        'ẞ' => "SS",
        'ł' => "l",
        'Ł' => "L",
        'đ' | 'ð' => "d",
        'Đ' | 'Ð' => "D",
        'þ' => "th",
        'Þ' => "TH",
        'ı' => "i",
        'ħ' => "h",
        'Ħ' => "H",
        'ŧ' => "t",
        'Ŧ' => "T",
        _ => return None,
    })
}

/// `word` spelled in ASCII without its diacritics (`Zürich` → `Zurich`,
/// `naïve` → `naive`, `Ørsted` → `Orsted`, `Straße` → `Strasse`), case
/// kept; `None` when `word` is ASCII already or something other than
/// Latin letters, marks and ASCII is left in it (`Москве`, `café–bar`
/// with an en dash), so that a fold only ever yields a spelling WordNet
/// could have.
pub fn fold_diacritics(word: &str) -> Option<String> {
    if word.is_ascii() {
        return None;
    }
    let stripped = strip_accents(word);
    let mut out = String::with_capacity(stripped.len());
    let mut chars = stripped.chars().peekable();
    while let Some(c) = chars.next() {
        match undecomposed(c) {
            // A capital ligature before lower case is a capital and a
            // small letter (`Æsop` → `Aesop`, but `ÆSOP` → `AESOP`).
            Some(s) if s.len() > 1 && chars.peek().is_some_and(|n| n.is_lowercase()) => {
                out.push_str(&s[..1]);
                out.push_str(&s[1..].to_ascii_lowercase());
            }
            Some(s) => out.push_str(s),
            None if c.is_ascii() => out.push(c),
            None => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Is `c` a letter of the Latin script (ASCII, the Latin-1 supplement and
/// the Latin Extended blocks, IPA, full-width Latin)?
pub fn is_latin_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    c.is_alphabetic()
        && matches!(c as u32,
            0x00C0..=0x024F
            | 0x0250..=0x02AF
            | 0x1D00..=0x1DBF
            | 0x1E00..=0x1EFF
            | 0x2C60..=0x2C7F
            | 0xA720..=0xA7FF
            | 0xAB30..=0xAB6F
            | 0xFB00..=0xFB06
            | 0xFF21..=0xFF3A
            | 0xFF41..=0xFF5A)
}

/// Does `word` have a Latin letter (`Zürich`, `iPhone`, `3M`)? A word
/// of letters in other scripts only (`Москве`, `Αθήνα`, `東京`) has not;
/// the name rules skip such words.
pub fn has_latin_letter(word: &str) -> bool {
    word.chars().any(is_latin_letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_latin_diacritics() {
        let fold = |w: &str| fold_diacritics(w);
        assert_eq!(fold("Café").as_deref(), Some("Cafe"));
        assert_eq!(fold("Zürich").as_deref(), Some("Zurich"));
        assert_eq!(fold("naïve").as_deref(), Some("naive"));
        assert_eq!(fold("façade").as_deref(), Some("facade"));
        assert_eq!(fold("résumé").as_deref(), Some("resume"));
        assert_eq!(fold("señor").as_deref(), Some("senor"));
        assert_eq!(fold("Ørsted").as_deref(), Some("Orsted"));
        assert_eq!(fold("Æsop").as_deref(), Some("Aesop"));
        assert_eq!(fold("ÆSOP").as_deref(), Some("AESOP"));
        assert_eq!(fold("encyclopædia").as_deref(), Some("encyclopaedia"));
        assert_eq!(fold("Straße").as_deref(), Some("Strasse"));
        assert_eq!(fold("Łódź").as_deref(), Some("Lodz"));
        assert_eq!(fold("d'état").as_deref(), Some("d'etat"));
        // Decomposed input: e and a combining acute accent.
        assert_eq!(fold("cafe\u{301}").as_deref(), Some("cafe"));
        // ASCII already, another script, or a non-letter left over.
        assert_eq!(fold("cafe"), None);
        assert_eq!(fold("Москве"), None);
        assert_eq!(fold("Αθήνα"), None);
        assert_eq!(fold("東京"), None);
        assert_eq!(fold("café–bar"), None);
    }

    #[test]
    fn latin_letters_or_none() {
        for w in ["Zürich", "iPhone", "3M", "Łódź", "Ørsted", "naïve"] {
            assert!(has_latin_letter(w), "{w}");
        }
        for w in [
            "Москве",
            "России",
            "Αθήνα",
            "東京",
            "서울",
            "1990",
            "--",
            "",
        ] {
            assert!(!has_latin_letter(w), "{w}");
        }
    }
}
