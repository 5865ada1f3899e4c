#[test]
fn model_forms_are_semcor_ascii() {
    use super::model_form;
    let forms: Vec<String> = [
        "\u{201C}",
        "Hi",
        "\u{201D}",
        "\u{2018}",
        "n\u{2019}t",
        "\u{2019}s",
        "o\u{2019}clock",
        "\u{2014}",
        "plain",
        "``",
    ]
    .iter()
    .map(|w| model_form(w).into_owned())
    .collect();
    assert_eq!(
        forms,
        ["``", "Hi", "''", "`", "n't", "'s", "o'clock", "--", "plain", "``"]
    );
    assert!(matches!(model_form("plain"), std::borrow::Cow::Borrowed(_)));
    assert_eq!((&*model_form("i"), &*model_form("it")), ("I", "it"));
}

use super::*;

fn words(text: &str) -> Vec<String> {
    tokenize(text).into_iter().map(|t| t.text).collect()
}

fn check_offsets(text: &str) {
    let toks = tokenize(text);
    let mut last_end = 0;
    for t in &toks {
        assert!(t.start < t.end, "empty token {t:?}");
        assert!(t.start >= last_end, "overlap at {t:?}");
        assert!(t.end - t.start <= MAX_TOKEN_BYTES);
        assert_eq!(&text[t.start..t.end], t.text);
        // Only separators between tokens.
        assert!(text[last_end..t.start].chars().all(is_separator));
        last_end = t.end;
    }
    assert!(text[last_end..].chars().all(is_separator));
}

#[test]
fn brief_example() {
    assert_eq!(
        words("Don't stop, Mr. Smith!"),
        ["Do", "n't", "stop", ",", "Mr.", "Smith", "!"]
    );
    check_offsets("Don't stop, Mr. Smith!");
}

#[test]
fn contractions() {
    assert_eq!(words("can't"), ["ca", "n't"]);
    assert_eq!(words("won't"), ["wo", "n't"]);
    assert_eq!(words("I'm here"), ["I", "'m", "here"]);
    assert_eq!(words("we'll"), ["we", "'ll"]);
    assert_eq!(words("John's dog"), ["John", "'s", "dog"]);
    assert_eq!(words("they're"), ["they", "'re"]);
    assert_eq!(words("I've"), ["I", "'ve"]);
    assert_eq!(words("she'd"), ["she", "'d"]);
    assert_eq!(words("DON'T"), ["DO", "N'T"]);
    assert_eq!(words("don’t it’s"), ["do", "n’t", "it", "’s"]);
    assert_eq!(words("she'd've"), ["she", "'d", "'ve"]);
    assert_eq!(
        words("o'clock O'Brien y'all"),
        ["o'clock", "O'Brien", "y'all"]
    );
    assert_eq!(words("cannot"), ["cannot"]);
    // Pre-tokenised input stays as it is.
    assert_eq!(words("do n't John 's"), ["do", "n't", "John", "'s"]);
    check_offsets("don’t it’s she'd've can't");
}

#[test]
fn quotes_and_punctuation() {
    assert_eq!(
        words("\"Hi,\" she said (twice)."),
        ["\"", "Hi", ",", "\"", "she", "said", "(", "twice", ")", "."]
    );
    assert_eq!(words("“Hi” ‘yo’"), ["“", "Hi", "”", "‘", "yo", "’"]);
    assert_eq!(words("``Hi'' `x'"), ["``", "Hi", "''", "`", "x", "'"]);
    assert_eq!(words("students' books"), ["students", "'", "books"]);
    assert_eq!(words("wait... no--yes"), ["wait", "...", "no", "--", "yes"]);
    assert_eq!(words("Really?!"), ["Really", "?", "!"]);
    check_offsets("“Hi” ‘yo’ ``Hi'' wait... no--yes");
}

#[test]
fn hyphens() {
    assert_eq!(
        words("a well-known state-of-the-art e-mail"),
        ["a", "well-known", "state-of-the-art", "e-mail"]
    );
    assert_eq!(words("bull's-eye"), ["bull's-eye"]);
    assert_eq!(words("-5 x- -y"), ["-", "5", "x", "-", "-", "y"]);
    assert_eq!(words("10-year-old"), ["10-year-old"]);
}

#[test]
fn words_broken_at_a_line_end() {
    assert_eq!(
        words("a well-\nknown con-\r\ntinued Super-\nSet man"),
        ["a", "well-\nknown", "con-\r\ntinued", "Super-\nSet", "man"]
    );
    // A blank line, a capital after a lower-case half, a conjunction,
    // a dash or no line break at all keep the pieces apart.
    assert_eq!(words("well-\n\nknown"), ["well", "-", "known"]);
    assert_eq!(words("pre-\nWar"), ["pre", "-", "War"]);
    assert_eq!(words("pre-\nand post-war"), ["pre", "-", "and", "post-war"]);
    assert_eq!(words("yes--\nno"), ["yes", "--", "no"]);
    assert_eq!(words("yes- no"), ["yes", "-", "no"]);
    // A soft hyphen joins with or without a line break.
    assert_eq!(
        words("con\u{AD}tinued con\u{AD}\ntinued"),
        ["con\u{AD}tinued", "con\u{AD}\ntinued"]
    );
    for text in [
        "a well-\nknown man",
        "x-\ny-\nz",
        "con\u{AD}\ntinued",
        "a-\n",
    ] {
        let toks = tokenize(text);
        for t in &toks {
            assert_eq!(&text[t.start..t.end], t.text);
        }
    }
    let forms: Vec<String> = [
        "well-\nknown",
        "con-\r\n  tinued",
        "con\u{AD}tinued",
        "don\u{2019}-\nt",
    ]
    .iter()
    .map(|w| model_form(w).into_owned())
    .collect();
    assert_eq!(forms, ["well-known", "con-tinued", "continued", "don'-t"]);
}

#[test]
fn numbers() {
    assert_eq!(words("pi is 3.14."), ["pi", "is", "3.14", "."]);
    assert_eq!(words("1,000 people"), ["1,000", "people"]);
    assert_eq!(words("10% of $5"), ["10", "%", "of", "$", "5"]);
    assert_eq!(
        words("at 12:30 on 1/2 .5"),
        ["at", "12:30", "on", "1/2", ".5"]
    );
    assert_eq!(words("the 1960s"), ["the", "1960s"]);
    assert_eq!(words("No. 5 and no."), ["No.", "5", "and", "no", "."]);
}

#[test]
fn abbreviations() {
    assert_eq!(words("The U.S. economy"), ["The", "U.S.", "economy"]);
    assert_eq!(
        words("e.g. this, i.e. that"),
        ["e.g.", "this", ",", "i.e.", "that"]
    );
    // Spaced, as SemCor writes them; a lone letter keeps no period.
    assert_eq!(
        words("forms, e. g. languages; i. e. that. Vitamin e. The"),
        [
            "forms",
            ",",
            "e.",
            "g.",
            "languages",
            ";",
            "i.",
            "e.",
            "that",
            ".",
            "Vitamin",
            "e",
            ".",
            "The"
        ]
    );
    assert_eq!(
        words("Dr. Jones and Mrs. Smith"),
        ["Dr.", "Jones", "and", "Mrs.", "Smith"]
    );
    assert_eq!(words("J. R. R. Tolkien"), ["J.", "R.", "R.", "Tolkien"]);
    assert_eq!(words("So did I."), ["So", "did", "I", "."]);
    assert_eq!(
        words("on Jan. 5 I sat."),
        ["on", "Jan.", "5", "I", "sat", "."]
    );
    assert_eq!(words("Acme Inc. etc."), ["Acme", "Inc.", "etc."]);
    assert_eq!(
        words("a Ph.D. at 5 p.m."),
        ["a", "Ph.D.", "at", "5", "p.m."]
    );
    assert_eq!(words("the end.The"), ["the", "end", ".", "The"]);
    // Units keep their period after a number only.
    assert_eq!(words("10 mg. of it"), ["10", "mg.", "of", "it"]);
    assert_eq!(words("5.5 cm. long"), ["5.5", "cm.", "long"]);
    assert_eq!(words("in mm. Then"), ["in", "mm", ".", "Then"]);
}

#[test]
fn urls_and_emails() {
    assert_eq!(
        words("See https://example.com/a?b=c, or www.rust-lang.org."),
        [
            "See",
            "https://example.com/a?b=c",
            ",",
            "or",
            "www.rust-lang.org",
            "."
        ]
    );
    assert_eq!(
        words("Mail john.smith@example.co.uk!"),
        ["Mail", "john.smith@example.co.uk", "!"]
    );
    assert_eq!(words("(http://x.org/p)"), ["(", "http://x.org/p", ")"]);
}

#[test]
fn dotted_names_stay_whole() {
    assert_eq!(
        words("See LICENSE.md. It needs Node.js 18, v3.2.1 or v1.x"),
        [
            "See",
            "LICENSE.md",
            ".",
            "It",
            "needs",
            "Node.js",
            "18",
            ",",
            "v3.2.1",
            "or",
            "v1.x"
        ]
    );
    assert_eq!(
        words("on user.created, edit config.yaml and .env.example"),
        [
            "on",
            "user.created",
            ",",
            "edit",
            "config.yaml",
            "and",
            ".",
            "env.example"
        ]
    );
    // A missing space before a capital, and a number abbreviation
    // without its space, are as before.
    assert_eq!(words("the end.The"), ["the", "end", ".", "The"]);
    assert_eq!(words("No.5 and p.12"), ["No.", "5", "and", "p", ".12"]);
    assert_eq!(words("U.S. e.g. 3.14"), ["U.S.", "e.g.", "3.14"]);
    check_offsets("See LICENSE.md. It needs Node.js 18, v3.2.1");
}

#[test]
fn emoji_are_one_token_each() {
    // A woman running (ZWJ, VS16), a skin tone, a flag, VS16 alone.
    let text = "so proud 🏃\u{200D}♀\u{FE0F}👍🏽 🇵🇹 ☕\u{FE0F} lol😂";
    assert_eq!(
        words(text),
        [
            "so",
            "proud",
            "🏃\u{200D}♀\u{FE0F}",
            "👍🏽",
            "🇵🇹",
            "☕\u{FE0F}",
            "lol",
            "😂"
        ]
    );
    check_offsets(text);
    // A joiner elsewhere still separates.
    assert_eq!(words("a\u{200D}b"), ["a", "b"]);
    assert!(is_emoji("🏃\u{200D}♀\u{FE0F}") && is_emoji("😂") && !is_emoji("©"));
    assert!(!is_emoji("a") && !is_emoji("é"));
    assert_eq!(&*model_form("👍🏽"), ".");
}

#[test]
fn unicode_and_separators() {
    assert_eq!(words("naïve café\u{00A0}crème"), ["naïve", "café", "crème"]);
    assert_eq!(words("a\u{200B}b\tc\r\nd"), ["a", "b", "c", "d"]);
    assert_eq!(words("日本語 🙂!"), ["日本語", "🙂", "!"]);
    assert!(tokenize("").is_empty());
    assert!(tokenize(" \n\t ").is_empty());
    check_offsets("naïve café\u{00A0}crème a\u{200B}b 日本語 🙂!");
}

#[test]
fn long_runs_are_capped_and_linear() {
    let text = "a".repeat(10 * 1024 * 1024);
    let start = std::time::Instant::now();
    let toks = tokenize(&text);
    assert_eq!(toks.len(), text.len().div_ceil(MAX_TOKEN_BYTES));
    assert!(toks.iter().all(|t| t.end - t.start <= MAX_TOKEN_BYTES));
    // Pathological mixes: many potential emails / abbreviations / numbers.
    let nasty = "a.b-c'd1,2@x".repeat(200_000) + &"é.".repeat(100_000);
    let toks = tokenize(&nasty);
    assert!(!toks.is_empty());
    assert_eq!(toks.last().unwrap().end, nasty.len());
    assert!(start.elapsed().as_secs() < 60, "tokeniser too slow");
}

/// Deterministic xorshift generator for the fuzz tests.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn fuzz_random_bytes() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..300 {
        let len = (xorshift(&mut s) % 600) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| xorshift(&mut s) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        check_offsets(&text);
    }
}

#[test]
fn fuzz_tricky_alphabet() {
    let parts = [
        "a", "Z", "'", "’", ".", "n't", "U.S.", "http://", "www.", "@", "-", "--", "1", ",", " ",
        "\n", "é", "🙂", "\u{301}", "Mr", "``", "''", "\"", "%", "s", "_", ":", "/", "\u{200B}",
    ];
    let mut s = 42u64;
    for _ in 0..2000 {
        let n = (xorshift(&mut s) % 40) as usize;
        let text: String = (0..n)
            .map(|_| parts[(xorshift(&mut s) % parts.len() as u64) as usize])
            .collect();
        check_offsets(&text);
    }
}
