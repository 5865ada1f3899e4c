//! A regex-based, Penn-Treebank-flavoured word tokeniser with byte offsets.
//!
//! [`tokenize`] turns raw text into [`RawToken`]s. Every token carries the
//! byte range `[start, end)` it came from, and the tokeniser never rewrites
//! text: **`&text[t.start..t.end] == t.text` holds for every token**.
//! Contractions are *split*, not normalised — `can't` becomes `ca` + `n't`,
//! both verbatim substrings — so the invariant survives; normalisation
//! (curly to straight apostrophes, `"` to Penn's ` `` `/`''`) is left to the
//! consumers that need it (the POS tagger does its own).
//!
//! What it does, in priority order at each position:
//!
//! * URLs (`http://…`, `https://…`, `ftp://…`, `www.…`) and e-mail addresses
//!   stay whole; trailing sentence punctuation is not part of a URL.
//! * Dotted abbreviations stay whole with their final period: `U.S.`,
//!   `e.g.`, `i.e.`, `a.m.`, `Ph.D.`.
//! * Dotted names stay whole: a word followed, with no space, by `.` and
//!   a lower-case letter or a digit, any number of times — file names
//!   (`LICENSE.md`, `config.yaml`), libraries and domains (`Node.js`,
//!   `example.com`), versions (`v3.2.1`, `v1.x`), code (`user.created`).
//!   Split at the dot, their pieces were words of their own (`LICENSE`,
//!   `md`, `Node` and the `x` of `v1.x` noun targets, `user.created` a
//!   noun and a verb). A capital after the dot (`end.The`, a missing
//!   space) is still two words and a period.
//! * Numbers with internal separators stay whole: `3.14`, `1,000`, `12:30`,
//!   `1/2`, `.5`. A percent sign is its own token (`10%` → `10` `%`, as in
//!   the Penn Treebank and SemCor); so is a currency sign (`$5` → `$` `5`).
//! * Words: letters, marks, digits and `_`, with internal hyphens and
//!   apostrophes kept (`well-known`, `o'clock`, `O'Brien`, `1960s`).
//!   Penn contractions are then split off the end: `don't` → `do` `n't`,
//!   `can't` → `ca` `n't`, `I'm` → `I` `'m`, `we'll` → `we` `'ll`,
//!   `John's` → `John` `'s` (also with the curly apostrophe `’`).
//!   `cannot` is kept whole, as SemCor has it.
//! * A word followed by `.` keeps the period when it is a known abbreviation
//!   (`Mr.`, `Dr.`, `etc.`, `Inc.`, `vs.`, capitalised `Jan.`, `Calif.` …;
//!   `No.`/`p.`/`Fig.` only before a number) or a capital initial (`J.`,
//!   but not `I.`), or one half of `e. g.` / `i. e.` written with a space
//!   (`e.` `g.`, which the multiword matcher joins into WordNet's `e.g.`).
//!   Any other final period is a token of its own; the
//!   sentence splitter decides what the period means.
//! * An emoji is one token with what belongs to it: a variation selector
//!   (U+FE0F, which alone read as a word of its own), skin-tone modifiers,
//!   and the pictographs a zero-width joiner (U+200D) glues to it (`🏃‍♀️`,
//!   `👍🏽`, `❤️`); a flag is its pair of regional indicators (`🇵🇹`).
//!   [`model_form`] reads it as a period: in posts and chat an emoji mostly
//!   closes a clause, and the models, learned on SemCor, have never seen
//!   one (they tagged `😂` a number, `👉` an adjective).
//! * Multi-character punctuation kept whole: `...`, `--` (and longer runs
//!   of `.`/`-`), LaTeX/Penn quotes ` `` ` and `''`. Every other
//!   character that is not whitespace is a token of its own (quotes,
//!   brackets, `$`, `%`, symbols, emoji …).
//!
//! * A word hyphenated at the end of a line (`well-`⏎`known`,
//!   `con-`⏎`tinued`, as hard-wrapped and PDF-extracted text breaks
//!   words) is one token across the break when the line's next word starts
//!   in lower case (or both halves in capitals, `Super-`⏎`Set`) and is
//!   not `and`/`or`/`nor`/`to` (`nineteenth-`⏎`and twentieth-century`);
//!   so is a word with a soft hyphen (U+00AD) inside
//!   or at a line end. Its text is still the verbatim slice, break
//!   included; [`model_form`] reads it without the break (`well-known`,
//!   `con-tinued`), and the pipeline asks WordNet whether the hyphen
//!   belongs to the word (`crate::pipeline::hyphens`).
//!
//! Whitespace, control characters and zero-width format characters
//! (U+200B–U+200D, U+2060, U+FEFF) separate tokens and are never part of
//! one, but for the line break inside a word hyphenated at a line end and
//! a zero-width joiner between two pictographs (inside an emoji).
//!
//! # Cost
//!
//! The text is first cut into runs of non-separator characters, and every
//! run longer than [`MAX_TOKEN_BYTES`] is cut into pieces of at most that
//! many bytes (at a character boundary) that are tokenised independently.
//! So no token is longer than `MAX_TOKEN_BYTES`, a regex is only ever run
//! on a piece of bounded length, and the whole pass is linear in the input
//! (a 10 MB line without a space becomes ~40 000 chunk tokens in well under
//! a second). The price: a "word" longer than the cap is returned as
//! several adjacent tokens.

use std::sync::OnceLock;

use regex::Regex;

mod broken_words;
mod emoji;

use broken_words::join_broken_words;
pub use emoji::is_emoji;
use emoji::{joins_emoji, ZWJ};

/// Longest token the tokeniser returns, in bytes. Longer runs without a
/// separator are cut into pieces of at most this size (see the module doc).
pub const MAX_TOKEN_BYTES: usize = 256;

/// A token and its byte span `[start, end)` in the text it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawToken {
    /// The token text, always equal to `&text[start..end]`.
    pub text: String,
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}

impl RawToken {
    fn new(text: &str, start: usize, end: usize) -> RawToken {
        RawToken {
            text: text[start..end].to_string(),
            start,
            end,
        }
    }
}

/// Abbreviations that keep their period whatever their case (lower-cased,
/// without the period). Titles first: the sentence splitter never ends a
/// sentence after one of [`TITLES`].
const ABBREV_ANY_CASE: &[&str] = &[
    // titles (see TITLES)
    "adm", "capt", "cmdr", "col", "cpl", "dr", "fr", "gen", "gov", "hon", "lt", "maj", "messrs",
    "mlle", "mme", "mr", "mrs", "ms", "mt", "pres", "prof", "pvt", "rep", "rev", "sen", "sgt",
    "sr", "st", "supt", // others
    "al", "approx", "assn", "bros", "cf", "co", "corp", "dept", "esp", "etc", "ft", "govt", "inc",
    "incl", "jr", "ltd", "vs", "viz",
];

/// Abbreviations after which a sentence is never ended: they precede a
/// name or an example (`Mr. Smith`, `e.g. this`).
pub(crate) const TITLES: &[&str] = &[
    "adm", "capt", "cf", "cmdr", "col", "cpl", "dr", "e.g", "fr", "gen", "gov", "hon", "i.e", "lt",
    "maj", "messrs", "mlle", "mme", "mr", "mrs", "ms", "mt", "pres", "prof", "pvt", "rep", "rev",
    "sen", "sgt", "sr", "st", "supt", "vs", "viz",
];

/// Abbreviations that keep their period only when capitalised (they are
/// also ordinary words: `I sat.`, `he was ill.`): months, weekdays, US
/// states, street words.
const ABBREV_CAPITALISED: &[&str] = &[
    "ala", "apr", "ariz", "ark", "aug", "ave", "blvd", "calif", "colo", "conn", "dec", "del",
    "feb", "fla", "fri", "ga", "ill", "ind", "jan", "jul", "jun", "kan", "kans", "ky", "la", "mar",
    "mass", "md", "mich", "minn", "miss", "mo", "mon", "mont", "neb", "nev", "nov", "oct", "okla",
    "ore", "pa", "rd", "sat", "sep", "sept", "sun", "tenn", "tex", "thu", "thur", "thurs", "tue",
    "tues", "va", "vt", "wash", "wed", "wis", "wyo",
];

/// Units that keep their period only after a number (`10 mg.`, `5 cm.`),
/// as SemCor writes them (`mg.`, `gm.`, `cm.`, `mm.`, `cc.`: 31 tokens on
/// its test split that were cut from their period); elsewhere `mm.` or
/// `in.` end sentences.
const ABBREV_AFTER_NUMBER: &[&str] = &[
    "cc", "cm", "gm", "gr", "hr", "hrs", "kg", "km", "lb", "lbs", "mg", "mi", "ml", "mm", "oz",
    "yd", "yds",
];

/// Abbreviations that keep their period only before a number (`No. 5`,
/// `p. 12`, `Fig. 3`), since `no.` ends many a sentence.
const ABBREV_BEFORE_NUMBER: &[&str] = &[
    "art", "ch", "fig", "figs", "no", "nos", "nr", "op", "p", "pp", "sec", "sect", "vol", "vols",
];

struct Patterns {
    url: Regex,
    email: Regex,
    dotted: Regex,
    dotted_name: Regex,
    number: Regex,
    multi_punct: Regex,
    emoji: Regex,
    clitic: Regex,
    word: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).expect("tokeniser pattern compiles");
        Patterns {
            url: re(
                r#"^(?i:https?://|ftp://|www\.)[^\s<>"“”‘’()\[\]{}]*[^\s<>"“”‘’()\[\]{}.,;:!?'`]"#,
            ),
            email: re(r"^[\p{L}\p{N}_%+\-]+(?:\.[\p{L}\p{N}_%+\-]+)*@[\p{L}\p{N}\-]+(?:\.[\p{L}\p{N}\-]+)*\.\p{L}{2,}"),
            dotted: re(r"^\p{L}{1,2}(?:\.\p{L}{1,2}){1,4}\."),
            dotted_name: re(
                r"^[\p{L}\p{M}\p{N}_]+(?:['’\-‐][\p{L}\p{M}\p{N}_]+)*(?:\.[\p{Ll}\p{Nd}][\p{L}\p{M}\p{N}_]*(?:[\-‐][\p{L}\p{M}\p{N}_]+)*)+",
            ),
            number: re(r"^(?:\p{Nd}+(?:[.,:/]\p{Nd}+)+|\.\p{Nd}+)"),
            multi_punct: re(r"^(?:\.{2,}|-{2,}|``|'')"),
            emoji: re(concat!(
                r"^(?:\p{Regional_Indicator}{2}|\p{Extended_Pictographic}",
                r"[\x{FE0E}\x{FE0F}\p{Emoji_Modifier}]*",
                r"(?:\x{200D}\p{Extended_Pictographic}[\x{FE0E}\x{FE0F}\p{Emoji_Modifier}]*)*)",
            )),
            clitic: re(r"^['’](?i:s|m|d|ll|re|ve)\b"),
            word: re(r"^[\p{L}\p{M}\p{N}_]+(?:['’\-‐][\p{L}\p{M}\p{N}_]+)*"),
        }
    })
}

/// True for characters that separate tokens and belong to none.
pub(crate) fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// A token as the models read it: typographic quotes and apostrophes in
/// the ASCII forms of SemCor, on which the tagger, the category, name and
/// multiword models were learned — `“` → ` `` `, `”` → `''`, a lone `‘` →
/// `` ` ``, `’` → `'` (alone or inside a word: `don’t`'s `n’t`, `o’clock`),
/// a lone `—` → `--`; and a lone lower-case `i` → `I`, the pronoun of text
/// written all in lower case (chat, transcripts), which the tagger read
/// as a noun and WordNet as iodine; an emoji → `.` (see the module doc); a word broken at a line end without
/// its break (`well-`⏎`known` → `well-known`, a soft hyphen dropped).
/// Output keeps the text as written;
/// only what the models see changes. Borrowed unchanged for anything else.
pub fn model_form(token: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    match token {
        "\u{201C}" => Cow::Borrowed("``"),
        "\u{201D}" => Cow::Borrowed("''"),
        "\u{2018}" => Cow::Borrowed("`"),
        "\u{2014}" => Cow::Borrowed("--"),
        "i" => Cow::Borrowed("I"),
        _ if is_emoji(token) => Cow::Borrowed("."),
        // A word broken at a line end or by a soft hyphen, read whole.
        _ if token.contains(['\u{AD}', '\n']) => {
            let whole = token.replace(|c: char| c == '\u{AD}' || c.is_whitespace(), "");
            Cow::Owned(model_form(&whole).into_owned())
        }
        _ if token.contains('\u{2019}') => Cow::Owned(token.replace('\u{2019}', "'")),
        _ => Cow::Borrowed(token),
    }
}

/// Split `text` into tokens; see the module documentation for the rules.
/// Offsets are byte offsets into `text`, and `&text[t.start..t.end] ==
/// t.text` for every token. Never panics; linear time.
pub fn tokenize(text: &str) -> Vec<RawToken> {
    let mut out = Vec::new();
    let mut run_start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_separator(c) && !(c == ZWJ && joins_emoji(text, i)) {
            if let Some(s) = run_start.take() {
                tokenize_run(text, s, i, &mut out);
            }
        } else if run_start.is_none() {
            run_start = Some(i);
        }
    }
    if let Some(s) = run_start {
        tokenize_run(text, s, text.len(), &mut out);
    }
    join_broken_words(text, out)
}

/// Tokenise the separator-free run `text[start..end]`, in pieces of at most
/// `MAX_TOKEN_BYTES`.
fn tokenize_run(text: &str, start: usize, end: usize, out: &mut Vec<RawToken>) {
    let mut s = start;
    while s < end {
        let mut e = (s + MAX_TOKEN_BYTES).min(end);
        while !text.is_char_boundary(e) {
            e -= 1;
        }
        tokenize_piece(text, s, e, out);
        s = e;
    }
}

/// Is the first non-whitespace character after byte `from` a digit?
fn number_follows(text: &str, from: usize) -> bool {
    text[from..]
        .chars()
        .take(8)
        .find(|c| !c.is_whitespace())
        .is_some_and(|c| c.is_ascii_digit())
}

/// Is the last non-whitespace character before byte `to` a digit?
fn number_precedes(text: &str, to: usize) -> bool {
    text[..to]
        .chars()
        .rev()
        .take(8)
        .find(|c| !c.is_whitespace())
        .is_some_and(|c| c.is_ascii_digit())
}

/// Is the letter `c` before the period at byte `dot` one half of `e. g.`
/// or `i. e.` written with a space (as SemCor and older texts do)? Both
/// halves keep their periods, so that the pair is WordNet's `e.g.` or
/// `i.e.` (a closed compound, [`crate::text::MweMatcher`]) rather than
/// the letters `e` and `g` and a sentence end.
fn spaced_latin(c: char, text: &str, dot: usize) -> bool {
    let after = text[dot + 1..].trim_start_matches([' ', '\t']);
    let start = dot - c.len_utf8();
    let before = text[..start].trim_end_matches([' ', '\t']);
    let first_half = |second: &str| {
        after.starts_with(second)
            && !after[second.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    };
    let second_half = |first: &str| {
        before.ends_with(first)
            && !before[..before.len() - first.len()]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
    };
    match c {
        'e' => first_half("g.") || second_half("i."),
        'g' => second_half("e."),
        'i' => first_half("e."),
        _ => false,
    }
}

/// Should `word` (immediately followed by a period at byte `dot`) keep the
/// period as part of the token?
fn keeps_period(word: &str, text: &str, dot: usize) -> bool {
    let mut chars = word.chars();
    let first = chars.next();
    if let (Some(c), None) = (first, chars.clone().next()) {
        // A single capital letter is an initial (J. Smith), except I.
        return (c.is_uppercase() && c != 'I') || spaced_latin(c, text, dot);
    }
    if word.len() > 8 {
        return false;
    }
    let lower = word.to_lowercase();
    let lower = lower.as_str();
    if ABBREV_ANY_CASE.contains(&lower) {
        return true;
    }
    if first.is_some_and(char::is_uppercase) && ABBREV_CAPITALISED.contains(&lower) {
        return true;
    }
    if ABBREV_AFTER_NUMBER.contains(&lower) && number_precedes(text, dot - word.len()) {
        return true;
    }
    ABBREV_BEFORE_NUMBER.contains(&lower) && number_follows(text, dot + 1)
}

/// Split Penn contractions off the end of the word `text[start..end]` and
/// push the pieces.
fn push_word(text: &str, start: usize, end: usize, out: &mut Vec<RawToken>) {
    // Pieces found from the end, pushed in reverse afterwards.
    let mut tail: Vec<(usize, usize)> = Vec::new();
    let mut e = end;
    loop {
        let w = &text[start..e];
        let cut = clitic_cut(w);
        match cut {
            Some(k) if k > 0 => {
                tail.push((start + k, e));
                e = start + k;
            }
            _ => break,
        }
    }
    out.push(RawToken::new(text, start, e));
    for &(s, t) in tail.iter().rev() {
        out.push(RawToken::new(text, s, t));
    }
}

/// Byte index in `w` where a contraction suffix starts, if `w` ends with
/// one (`n't`, `'s`, `'m`, `'d`, `'ll`, `'re`, `'ve`, straight or curly).
fn clitic_cut(w: &str) -> Option<usize> {
    let lower_ends = |suffix: &str| {
        w.len() >= suffix.len()
            && w.is_char_boundary(w.len() - suffix.len())
            && w[w.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    for nt in ["n't", "n’t"] {
        if lower_ends(nt) {
            return Some(w.len() - nt.len());
        }
    }
    for suffix in ["s", "m", "d", "ll", "re", "ve"] {
        for apos in ["'", "’"] {
            let full_len = apos.len() + suffix.len();
            if w.len() >= full_len
                && w.is_char_boundary(w.len() - full_len)
                && w[w.len() - full_len..].starts_with(apos)
                && w[w.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
            {
                return Some(w.len() - full_len);
            }
        }
    }
    None
}

/// Tokenise one piece `text[start..end]` (no separators, bounded length).
fn tokenize_piece(text: &str, start: usize, end: usize, out: &mut Vec<RawToken>) {
    let p = patterns();
    let piece = &text[start..end];
    let maybe_url = piece.contains("://") || piece.contains("www.") || piece.contains("WWW.");
    let maybe_email = piece.contains('@');
    let maybe_emoji = !piece.is_ascii();
    let mut pos = start;
    while pos < end {
        let rest = &text[pos..end];
        let try_re = |re: &Regex| re.find(rest).map(|m| pos + m.end());
        if maybe_url {
            if let Some(e) = try_re(&p.url) {
                out.push(RawToken::new(text, pos, e));
                pos = e;
                continue;
            }
        }
        if maybe_email {
            if let Some(e) = try_re(&p.email) {
                out.push(RawToken::new(text, pos, e));
                pos = e;
                continue;
            }
        }
        if maybe_emoji {
            if let Some(e) = try_re(&p.emoji) {
                out.push(RawToken::new(text, pos, e));
                pos = e;
                continue;
            }
        }
        if let Some(e) = try_re(&p.dotted)
            .or_else(|| try_re(&p.number))
            .or_else(|| try_re(&p.dotted_name).filter(|&e| is_dotted_name(&text[pos..e])))
            .or_else(|| try_re(&p.multi_punct))
            .or_else(|| try_re(&p.clitic))
        {
            out.push(RawToken::new(text, pos, e));
            pos = e;
            continue;
        }
        if let Some(e) = try_re(&p.word) {
            let word = &text[pos..e];
            if e < end
                && text.as_bytes()[e] == b'.'
                && clitic_cut(word).is_none()
                && keeps_period(word, text, e)
            {
                out.push(RawToken::new(text, pos, e + 1));
                pos = e + 1;
            } else {
                push_word(text, pos, e, out);
                pos = e;
            }
            continue;
        }
        // Any other character is a token of its own.
        let c = rest.chars().next().expect("pos < end is inside the piece");
        let e = pos + c.len_utf8();
        out.push(RawToken::new(text, pos, e));
        pos = e;
    }
}

/// Is `t` (a match of the dotted-name pattern) a dotted name rather than
/// an abbreviation before a number written without its space (`No.5`,
/// `p.12`, `Fig.3`: letters, then only digits after the dots)?
fn is_dotted_name(t: &str) -> bool {
    let mut parts = t.split('.');
    let first = parts.next().unwrap_or("");
    !(first.chars().all(char::is_alphabetic)
        && parts.all(|p| p.chars().all(|c| c.is_ascii_digit())))
}

/// Does this token end with a period that the tokeniser kept because it
/// took the word for an abbreviation or an initial (`Mr.`, `U.S.`, `J.`)?
pub(crate) fn is_abbreviation(tok: &str) -> bool {
    tok.len() > 1 && tok.ends_with('.') && tok.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
