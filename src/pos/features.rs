//! Word normalisation and hashed feature extraction for the tagger.
//!
//! Features are never stored as strings: each is an FNV-1a hash of a
//! template id and its parts, finished with the SplitMix64 mixer, so a
//! feature is one `u64` both during training and in the saved model. The
//! hash is fixed (not `std`'s randomised one) so models are portable.

use std::hash::{BuildHasherDefault, Hasher};

use super::Lexicon;

/// Feature-set flags stored in the model (bit set of the optional
/// templates the model was trained with).
pub(crate) mod flags {
    /// Word shape (`Xx`, `d.d`, `x-x` …) of the current word.
    pub const SHAPE: u32 = 1;
    /// Suffixes of length 1, 2 and 4 and a 2-character prefix besides the
    /// default suffix-3 / prefix-1.
    pub const AFFIXES: u32 = 1 << 1;
    /// Hyphenated words, 4-digit numbers and numbers normalise to
    /// `!HYPHEN`, `!YEAR`, `!DIGITS` (Honnibal's normalisation).
    pub const CLASS_NORM: u32 = 1 << 2;
    /// Capitalisation × sentence-initial position.
    pub const CAP_INITIAL: u32 = 1 << 3;
    /// Previous tag × next word, and current word × next word.
    pub const BIGRAMS: u32 = 1 << 4;
    /// The categories WordNet allows for the current word, alone, with
    /// the previous tag and with its suffix, and for the words at −1, +1
    /// (needs the model's [`super::super::Lexicon`]).
    pub const LEXICON: u32 = 1 << 5;
    /// Previous word × current word, previous tag × suffix, and the
    /// previous word × current word's lexicon bits.
    pub const CONTEXT2: u32 = 1 << 6;
    /// All flags this build knows.
    pub const KNOWN: u32 =
        SHAPE | AFFIXES | CLASS_NORM | CAP_INITIAL | BIGRAMS | LEXICON | CONTEXT2;
}

/// The tag id used for positions before the sentence start.
pub(crate) const START: u16 = u16::MAX;
/// The tag id used two positions before the sentence start.
pub(crate) const START2: u16 = u16::MAX - 1;

/// A `Hasher` that passes a `u64` key through (keys are already hashes).
#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Build-hasher for maps keyed by feature hashes.
pub(crate) type IdBuild = BuildHasherDefault<IdHasher>;

/// SplitMix64 finaliser.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a over feature parts.
#[derive(Clone, Copy)]
struct FeatHash(u64);

impl FeatHash {
    fn new(template: u8) -> FeatHash {
        let mut h = FeatHash(0xcbf2_9ce4_8422_2325);
        h.byte(template);
        h
    }
    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn str(mut self, s: &str) -> FeatHash {
        for b in s.bytes() {
            self.byte(b);
        }
        self.byte(0xFF); // never occurs in UTF-8: separates parts
        self
    }
    fn tag(mut self, t: u16) -> FeatHash {
        self.byte(t as u8);
        self.byte((t >> 8) as u8);
        self
    }
    fn done(self) -> u64 {
        mix64(self.0)
    }
}

/// The last `n` characters of `s` (all of it if shorter).
fn suffix(s: &str, n: usize) -> &str {
    match s.char_indices().rev().nth(n - 1) {
        Some((i, _)) => &s[i..],
        None => s,
    }
}

/// The first `n` characters of `s` (all of it if shorter).
fn prefix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Compressed word shape: `Washington` → `Xx`, `U.S.` → `X.X.`, `3.14` →
/// `d.d`, `well-known` → `x-x`; at most 8 classes.
fn shape(w: &str) -> String {
    let mut out = String::new();
    let mut last = '\0';
    for c in w.chars() {
        let k = if c.is_uppercase() {
            'X'
        } else if c.is_lowercase() {
            'x'
        } else if c.is_numeric() {
            'd'
        } else if c.is_ascii_punctuation() {
            c
        } else {
            'o'
        };
        if k != last {
            out.push(k);
            last = k;
            if out.len() >= 8 {
                break;
            }
        }
    }
    out
}

/// Map the surface forms plain text has but SemCor lacks onto SemCor's:
/// curly quotes and apostrophes, a straight `"` (open/close alternating
/// within the sentence), and the Penn pieces `ca`/`wo` of `can't`/`won't`
/// (SemCor writes `can n't`, `won n't`).
pub(crate) fn surface_forms<S: AsRef<str>>(words: &[S]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut open_double = false;
    for w in words {
        let w = w.as_ref();
        let form = match w {
            "\"" => {
                open_double = !open_double;
                if open_double { "``" } else { "''" }.to_string()
            }
            // Some corpora write every double quote as `` (the evaluation
            // framework's SemEval-2007 text: "the `` principal cause `` of"),
            // so an opening quote while one is open closes it: a second
            // `` read as opening made the tagger call `cause` a verb.
            "“" | "``" => {
                let close = w == "``" && open_double;
                open_double = !close;
                if close { "''" } else { "``" }.to_string()
            }
            "”" => {
                open_double = false;
                "''".to_string()
            }
            // A closing quote, also glued to what follows (SemCor's `''.`).
            _ if w.starts_with("''") => {
                open_double = false;
                w.to_string()
            }
            "‘" => "`".to_string(),
            _ if w.contains('’') => w.replace('’', "'"),
            _ => w.to_string(),
        };
        out.push(form);
    }
    for i in 0..out.len().saturating_sub(1) {
        if out[i + 1].eq_ignore_ascii_case("n't")
            && (out[i].eq_ignore_ascii_case("ca") || out[i].eq_ignore_ascii_case("wo"))
        {
            out[i].push('n');
        }
    }
    out
}

/// The normalised form of a (surface-mapped) word used by word features.
pub(crate) fn normalise(w: &str, feature_flags: u32) -> String {
    if feature_flags & flags::CLASS_NORM != 0 {
        let first = w.chars().next();
        if w.contains('-') && first != Some('-') {
            return "!HYPHEN".to_string();
        }
        if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) {
            return "!YEAR".to_string();
        }
        if first.is_some_and(|c| c.is_ascii_digit()) {
            return "!DIGITS".to_string();
        }
    }
    w.to_lowercase()
}

/// A sentence prepared for feature extraction.
pub(crate) struct Context {
    /// Surface forms (case kept) — for affixes, shape, tag dictionary.
    pub raw: Vec<String>,
    /// Normalised forms — for word features.
    pub norm: Vec<String>,
    /// WordNet categories of each word ([`Lexicon::bits`]); empty when the
    /// lexicon features are off.
    pub lex: Vec<u8>,
}

impl Context {
    pub fn new<S: AsRef<str>>(words: &[S], feature_flags: u32, lexicon: &Lexicon) -> Context {
        let raw = surface_forms(words);
        let norm = raw.iter().map(|w| normalise(w, feature_flags)).collect();
        let lex = if feature_flags & flags::LEXICON != 0 {
            let mut buf = String::new();
            raw.iter().map(|w| lexicon.bits_with(w, &mut buf)).collect()
        } else {
            Vec::new()
        };
        Context { raw, norm, lex }
    }

    /// Lexicon bits of the word at `i + off`; 0xFF outside the sentence.
    fn lex_at(&self, i: usize, off: isize) -> u16 {
        let j = i as isize + off;
        if j < 0 || j as usize >= self.lex.len() {
            0xFF
        } else {
            u16::from(self.lex[j as usize])
        }
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Normalised word at `i + off`, or a padding symbol outside.
    fn at(&self, i: usize, off: isize) -> &str {
        let j = i as isize + off;
        if j < 0 {
            if j == -1 {
                "-START-"
            } else {
                "-START2-"
            }
        } else if j as usize >= self.norm.len() {
            if j as usize == self.norm.len() {
                "-END-"
            } else {
                "-END2-"
            }
        } else {
            &self.norm[j as usize]
        }
    }

    /// The features of token `i` given the two previous tags, into `out`:
    /// [`Context::static_features`] then [`Context::tag_features`].
    pub fn features(&self, i: usize, prev: u16, prev2: u16, fl: u32, out: &mut Vec<u64>) {
        out.clear();
        self.static_features(i, fl, out);
        self.tag_features(i, prev, prev2, fl, out);
    }

    /// The features of token `i` that depend on the previous tags
    /// (appended to `out`): a beam decoder scores the others once per
    /// word and these once per hypothesis.
    pub fn tag_features(&self, i: usize, prev: u16, prev2: u16, fl: u32, out: &mut Vec<u64>) {
        let raw = self.raw[i].as_str();
        let w = self.norm[i].as_str();
        let f = FeatHash::new;
        out.push(f(3).tag(prev).done());
        out.push(f(4).tag(prev2).done());
        out.push(f(5).tag(prev).tag(prev2).done());
        out.push(f(7).tag(prev).str(w).done());
        if fl & flags::BIGRAMS != 0 {
            out.push(f(20).tag(prev).str(self.at(i, 1)).done());
        }
        if fl & flags::LEXICON != 0 {
            out.push(f(23).tag(self.lex_at(i, 0)).tag(prev).done());
        }
        if fl & flags::CONTEXT2 != 0 {
            out.push(f(29).tag(prev).str(suffix(raw, 3)).done());
        }
    }

    /// The features of token `i` that do not depend on the previous tags
    /// (appended to `out`).
    pub fn static_features(&self, i: usize, fl: u32, out: &mut Vec<u64>) {
        let raw = self.raw[i].as_str();
        let w = self.norm[i].as_str();
        let f = FeatHash::new;
        out.push(f(0).done());
        out.push(f(1).str(suffix(raw, 3)).done());
        out.push(f(2).str(prefix(raw, 1)).done());
        out.push(f(6).str(w).done());
        let (wm1, wm2, wp1, wp2) = (self.at(i, -1), self.at(i, -2), self.at(i, 1), self.at(i, 2));
        out.push(f(8).str(wm1).done());
        out.push(f(9).str(suffix(wm1, 3)).done());
        out.push(f(10).str(wm2).done());
        out.push(f(11).str(wp1).done());
        out.push(f(12).str(suffix(wp1, 3)).done());
        out.push(f(13).str(wp2).done());
        if fl & flags::SHAPE != 0 {
            out.push(f(14).str(&shape(raw)).done());
        }
        if fl & flags::AFFIXES != 0 {
            out.push(f(15).str(suffix(raw, 1)).done());
            out.push(f(16).str(suffix(raw, 2)).done());
            out.push(f(17).str(suffix(raw, 4)).done());
            out.push(f(18).str(prefix(raw, 2)).done());
        }
        if fl & flags::CAP_INITIAL != 0 {
            let cap = raw.chars().next().is_some_and(char::is_uppercase);
            out.push(f(19).tag(u16::from(cap)).tag(u16::from(i == 0)).done());
        }
        if fl & flags::BIGRAMS != 0 {
            out.push(f(21).str(w).str(wp1).done());
        }
        if fl & flags::LEXICON != 0 {
            let b = self.lex_at(i, 0);
            out.push(f(22).tag(b).done());
            out.push(f(24).tag(b).str(suffix(raw, 3)).done());
            out.push(f(25).tag(self.lex_at(i, -1)).done());
            out.push(f(26).tag(self.lex_at(i, 1)).done());
            out.push(f(27).tag(b).tag(self.lex_at(i, 1)).done());
        }
        if fl & flags::CONTEXT2 != 0 {
            out.push(f(28).str(wm1).str(w).done());
            out.push(f(30).str(wm1).tag(self.lex_at(i, 0)).done());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affixes_and_shapes() {
        assert_eq!(suffix("walking", 3), "ing");
        assert_eq!(suffix("é", 3), "é");
        assert_eq!(suffix("naïve", 3), "ïve");
        assert_eq!(prefix("Über", 1), "Ü");
        assert_eq!(shape("Washington"), "Xx");
        assert_eq!(shape("U.S."), "X.X.");
        assert_eq!(shape("3.14"), "d.d");
        assert_eq!(shape("well-known"), "x-x");
    }

    #[test]
    fn surface_mapping() {
        let w = surface_forms(&["\"", "Hi", "\"", "“", "ca", "n’t", "”", "it’s", "Wo", "n't"]);
        assert_eq!(
            w,
            ["``", "Hi", "''", "``", "can", "n't", "''", "it's", "Won", "n't"]
        );
        // `` for both quotes: the second one closes.
        let w = surface_forms(&["``", "cause", "``", "of", "``", "x", "''"]);
        assert_eq!(w, ["``", "cause", "''", "of", "``", "x", "''"]);
        // SemCor's paired quotes are left as they are, `''.` closing too.
        let w = surface_forms(&["``", "Sure", "''.", "``"]);
        assert_eq!(w, ["``", "Sure", "''.", "``"]);
    }

    #[test]
    fn normalisation() {
        assert_eq!(normalise("The", 0), "the");
        assert_eq!(normalise("well-known", flags::CLASS_NORM), "!HYPHEN");
        assert_eq!(normalise("1984", flags::CLASS_NORM), "!YEAR");
        assert_eq!(normalise("3.14", flags::CLASS_NORM), "!DIGITS");
        assert_eq!(normalise("-", flags::CLASS_NORM), "-");
    }

    #[test]
    fn feature_hashes_are_stable() {
        let c = Context::new(&["The", "dog"], flags::KNOWN, &Lexicon::default());
        let mut a = Vec::new();
        let mut b = Vec::new();
        c.features(1, 3, START, flags::KNOWN, &mut a);
        c.features(1, 3, START, flags::KNOWN, &mut b);
        assert_eq!(a, b);
        let mut d = Vec::new();
        c.features(1, 4, START, flags::KNOWN, &mut d);
        assert_ne!(a, d);
        // Bias is the same for every token.
        assert_eq!(a[0], d[0]);
    }
}
