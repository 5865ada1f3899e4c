//! Rule-based sentence splitting over the token stream.
//!
//! [`split_sentences`] tokenises with [`tokenize`] and cuts the token
//! stream into sentences; [`split_tokens`] does the cutting for tokens you
//! already have. The rules, in order:
//!
//! 1. A blank line (two or more newlines between two tokens) always ends
//!    a sentence (headings, list items and paragraphs stay apart).
//! 2. A token made only of `.`, `!`, `?` or `…` (so also `...`, `?!` read
//!    as two tokens) ends the sentence, unless the next token starts with a
//!    lower-case letter (`"Why?" he asked`, `approx. five`).
//! 3. A token the tokeniser kept as an abbreviation (`Mr.`, `U.S.`, `etc.`,
//!    `Jan.`, an initial `J.` — see [`crate::text::tokenize()`]) ends the
//!    sentence only when it is not a title-like abbreviation (`Mr.`, `Dr.`,
//!    `e.g.`, `vs.` …, never), and the next token is capitalised *and* a
//!    stop word (`The`, `He`, `But` …): `at Acme Inc. The firm …` splits,
//!    `the U.S. Army` does not. After an initial (`J.`) the stop word must
//!    also be one no name is spelled as (`… Plan B. The …` and `… M.`⏎
//!    `Because …` split; `J. Will` does not). At the end of the text
//!    an abbreviation simply ends the last sentence.
//! 4. After a sentence end, closing quotes and brackets stay with the
//!    sentence: `''`, `”`, `’`, `)`, `]`, `}` always, straight `"` and `'`
//!    only when they touch the preceding token (no space in between), since
//!    with a space they are more likely to open the next sentence.
//!
//! Offsets stay absolute within the input text.

use super::stopwords::is_stop_word;
use super::tokenize::{is_abbreviation, tokenize, RawToken, TITLES};

/// Split `text` into sentences of tokens (offsets absolute within `text`).
/// Empty or whitespace-only text gives no sentences.
pub fn split_sentences(text: &str) -> Vec<Vec<RawToken>> {
    split_tokens(text, tokenize(text))
}

/// Cut an already tokenised stream into sentences. `tokens` must come from
/// `text` (their offsets index it), in order; the blank-line rule looks at
/// the text between tokens.
pub fn split_tokens(text: &str, tokens: Vec<RawToken>) -> Vec<Vec<RawToken>> {
    let mut sentences = Vec::new();
    let mut current: Vec<RawToken> = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tok) = iter.next() {
        if let Some(prev) = current.last() {
            if blank_line_between(text, prev.end, tok.start) {
                sentences.push(std::mem::take(&mut current));
            }
        }
        let candidate = is_terminator(&tok.text) || is_abbreviation(&tok.text);
        current.push(tok);
        if !candidate {
            continue;
        }
        let at = current.len() - 1;
        // Closing quotes and brackets stay with the sentence, and so do
        // further terminators (`?!`, `." )`).
        while let Some(next) = iter.peek() {
            let last_end = current[current.len() - 1].end;
            let touching = next.start == last_end;
            if blank_line_between(text, last_end, next.start) {
                break;
            }
            if is_terminator(&next.text) || is_closer(&next.text, touching) {
                current.push(iter.next().expect("peeked"));
            } else {
                break;
            }
        }
        if ends_sentence(&current[at].text, iter.peek().map(|t| t.text.as_str())) {
            sentences.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        sentences.push(current);
    }
    sentences
}

/// Two or more newlines between byte offsets `a` and `b` (the gap between
/// two tokens holds only separators).
fn blank_line_between(text: &str, a: usize, b: usize) -> bool {
    text.get(a..b)
        .is_some_and(|gap| gap.bytes().filter(|&c| c == b'\n').count() >= 2)
}

fn is_terminator(tok: &str) -> bool {
    !tok.is_empty() && tok.chars().all(|c| matches!(c, '.' | '!' | '?' | '…'))
}

fn is_closer(tok: &str, touching: bool) -> bool {
    match tok {
        "''" | "”" | "’" | "»" | ")" | "]" | "}" => true,
        "\"" | "'" => touching,
        _ => false,
    }
}

fn starts_lowercase(tok: &str) -> bool {
    tok.chars().next().is_some_and(char::is_lowercase)
}

fn starts_uppercase(tok: &str) -> bool {
    tok.chars().next().is_some_and(char::is_uppercase)
}

/// Does the terminator or abbreviation `t` end the sentence, given the
/// token after it and its closers (if any)?
fn ends_sentence(t: &str, next: Option<&str>) -> bool {
    if is_terminator(t) {
        return !next.is_some_and(starts_lowercase);
    }
    if !is_abbreviation(t) {
        return false;
    }
    let Some(next) = next else {
        return true;
    };
    let stem = t[..t.len() - 1].to_lowercase();
    if TITLES.contains(&stem.as_str()) {
        return false;
    }
    let opens = starts_uppercase(next) && is_stop_word(next);
    if stem.chars().count() == 1 {
        // An initial ends the sentence only before a word no name is
        // spelled as: `… Plan B. The …`, `… M. Because …`, but `J. Will`,
        // `D. Don` and the next initial stay in the name.
        return opens
            && next.chars().count() >= 2
            && !NAME_STOP_WORDS.contains(&&*next.to_lowercase());
    }
    opens
}

/// Stop words that are also given names or surnames (`J. Will`, `R. Don`):
/// after an initial they continue the name.
const NAME_STOP_WORDS: &[&str] = &["can", "don", "ma", "will", "won"];

#[cfg(test)]
mod tests {
    use super::*;

    fn sents(text: &str) -> Vec<String> {
        split_sentences(text)
            .iter()
            .map(|s| {
                s.iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn brief_examples() {
        assert_eq!(
            sents("Mr. Smith went to Washington. He arrived on Jan. 5."),
            ["Mr. Smith went to Washington .", "He arrived on Jan. 5 ."]
        );
        assert_eq!(
            sents("The U.S. economy grew. Prices rose."),
            ["The U.S. economy grew .", "Prices rose ."]
        );
    }

    #[test]
    fn offsets_are_absolute() {
        let text = "  First one.  Second one!\n";
        let s = split_sentences(text);
        assert_eq!(s.len(), 2);
        for t in s.iter().flatten() {
            assert_eq!(&text[t.start..t.end], t.text);
        }
        assert_eq!(s[1][0].start, 14);
    }

    #[test]
    fn terminators_and_closers() {
        assert_eq!(
            sents("\"Stop!\" He ran. (It was late.) Then?! Yes..."),
            [
                "\" Stop ! \"",
                "He ran .",
                "( It was late . )",
                "Then ? !",
                "Yes ..."
            ]
        );
        assert_eq!(
            sents("He said ``go.'' She went."),
            ["He said `` go . ''", "She went ."]
        );
        assert_eq!(sents("\"Why?\" he asked."), ["\" Why ? \" he asked ."]);
        assert_eq!(
            sents("Go. \"Now,\" he said."),
            ["Go .", "\" Now , \" he said ."]
        );
        assert_eq!(sents("Wait... What?"), ["Wait ...", "What ?"]);
    }

    #[test]
    fn abbreviations() {
        assert_eq!(
            sents("Dr. J. R. Smith met Mrs. Jones, e.g. Tuesday."),
            ["Dr. J. R. Smith met Mrs. Jones , e.g. Tuesday ."]
        );
        assert_eq!(
            sents("He works at Acme Inc. The firm grew. Also apples, etc. But not pears."),
            [
                "He works at Acme Inc.",
                "The firm grew .",
                "Also apples , etc.",
                "But not pears ."
            ]
        );
        assert_eq!(sents("The U.S. Army won."), ["The U.S. Army won ."]);
        assert_eq!(sents("She lives in the U.S."), ["She lives in the U.S."]);
        assert_eq!(sents("See No. 5. Next."), ["See No. 5 .", "Next ."]);
        assert_eq!(
            sents("He chose Plan B. The rest failed.\nIt was M.\nBecause of J. Will Smith."),
            [
                "He chose Plan B.",
                "The rest failed .",
                "It was M.",
                "Because of J. Will Smith ."
            ]
        );
    }

    #[test]
    fn blank_lines() {
        assert_eq!(
            sents("Title\n\nFirst line\nstill first.\n \nLast"),
            ["Title", "First line still first .", "Last"]
        );
        assert_eq!(sents("a\r\n\r\nb"), ["a", "b"]);
    }

    #[test]
    fn empty_inputs() {
        assert!(split_sentences("").is_empty());
        assert!(split_sentences(" \n\n ").is_empty());
        assert_eq!(sents("..."), ["..."]);
    }
}
