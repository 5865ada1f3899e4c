//! Rule-based sentence splitting over the token stream.
//!
//! [`split_sentences`] tokenises with [`tokenize`] and cuts the token
//! stream into sentences; [`split_tokens`] does the cutting for tokens you
//! already have. The rules, in order:
//!
//! 1. A blank line (two or more newlines between two tokens) always ends
//!    a sentence (headings, list items and paragraphs stay apart).
//! 2. A single line break ends a sentence when the line was broken on
//!    purpose, not wrapped: when the next line's first word would have
//!    fitted on it within the paragraph's width (its longest line but
//!    for outliers, `ParagraphWidths`), as a hard-wrapped paragraph
//!    breaks a line only where the next word does not fit; before a line
//!    that starts with no list mark (`*`, `-`, `•`, `|`, `#`, `>`), within
//!    three quarters of that width, since text set in proportional type,
//!    justified, balanced or wrapped optimally (`fmt`) varies in width
//!    without a break of its own, and a name may begin the next line. So headlines, list items, chat
//!    posts and an e-mail's lines, one a line without a final period,
//!    stay apart, while wrapped prose reads on; the break after one of a
//!    paragraph's longest lines never ends a sentence. Nor does one after
//!    a comma, semicolon, dash or opening bracket, which carry the
//!    sentence over.
//! 3. A token made only of `.`, `!`, `?` or `…` (so also `...`, `?!` read
//!    as two tokens) ends the sentence, unless the next token starts with a
//!    lower-case letter (`"Why?" he asked`, `approx. five`).
//! 4. A token the tokeniser kept as an abbreviation (`Mr.`, `U.S.`, `etc.`,
//!    `Jan.`, an initial `J.` — see [`crate::text::tokenize()`]) ends the
//!    sentence only when it is not a title-like abbreviation (`Mr.`, `Dr.`,
//!    `e.g.`, `vs.` …, never), and the next token is capitalised *and* a
//!    stop word (`The`, `He`, `But` …): `at Acme Inc. The firm …` splits,
//!    `the U.S. Army` does not. After an initial (`J.`) the stop word must
//!    also be one no name is spelled as (`… Plan B. The …` and `… M.`⏎
//!    `Because …` split; `J. Will` does not). At the end of the text
//!    an abbreviation simply ends the last sentence.
//! 5. After a sentence end, closing quotes and brackets stay with the
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
    let mut widths: Option<ParagraphWidths> = None;
    let mut iter = tokens.into_iter().peekable();
    while let Some(tok) = iter.next() {
        if let Some(prev) = current.last() {
            if blank_line_between(text, prev.end, tok.start)
                || line_break_ends_sentence(text, prev, &tok, &mut widths)
            {
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

/// The width of each paragraph of a text (its runs of lines between
/// blank lines), as `(first byte, end byte, width)`: the length in
/// characters of its longest line but for outliers — of a paragraph of
/// six lines or more, its second longest, of 16 or more, its
/// (n/8+1)-th — since a wrapped paragraph may hold a line its wrapper
/// could not break (a long code span, a URL) or one edited by hand.
struct ParagraphWidths(Vec<(usize, usize, usize)>);

impl ParagraphWidths {
    fn new(text: &str) -> Self {
        let mut out = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        let mut start = 0;
        let mut pos = 0;
        let close = |lines: &mut Vec<usize>, start: usize, end: usize, out: &mut Vec<_>| {
            if lines.is_empty() {
                return;
            }
            lines.sort_unstable_by(|a, b| b.cmp(a));
            let k = if lines.len() >= 6 {
                (lines.len() / 8).max(1)
            } else {
                0
            };
            out.push((start, end, lines[k]));
            lines.clear();
        };
        for line in text.split_inclusive('\n') {
            let body = line.trim_end();
            if body.trim_start().is_empty() {
                close(&mut lines, start, pos, &mut out);
            } else {
                if lines.is_empty() {
                    start = pos;
                }
                lines.push(body.chars().count());
            }
            pos += line.len();
        }
        close(&mut lines, start, pos, &mut out);
        ParagraphWidths(out)
    }

    /// The width of the paragraph holding byte `at`.
    fn at(&self, at: usize) -> usize {
        let k = self.0.partition_point(|&(start, _, _)| start <= at);
        k.checked_sub(1)
            .map(|k| self.0[k])
            .filter(|&(_, end, _)| at < end)
            .map_or(0, |(_, _, width)| width)
    }
}

/// Is the single line break between `prev` and `next` a sentence end
/// (rule 2 of the module doc): the next line's first word would have
/// fitted on `prev`'s line within the paragraph's width, and `prev` does
/// not carry the sentence over (a comma, semicolon, dash, opening bracket)?
fn line_break_ends_sentence(
    text: &str,
    prev: &RawToken,
    next: &RawToken,
    widths: &mut Option<ParagraphWidths>,
) -> bool {
    let Some(gap) = text.get(prev.end..next.start) else {
        return false;
    };
    if gap.bytes().filter(|&c| c == b'\n').count() != 1
        || matches!(
            prev.text.as_str(),
            "," | ";" | "-" | "--" | "\u{2013}" | "\u{2014}" | "(" | "[" | "{" | "``" | "\u{201C}"
        )
    {
        return false;
    }
    let line_start = text[..prev.end].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..prev.end].chars().count();
    let word = text[next.start..]
        .split(char::is_whitespace)
        .next()
        .unwrap_or("")
        .chars()
        .count();
    let width = widths
        .get_or_insert_with(|| ParagraphWidths::new(text))
        .at(prev.end);
    let wanted = line + 1 + word;
    // A list mark (`*`, `-`, `•`, `|`, `#`, `>`) opens a line of its own
    // readily. Before anything else, only a line clearly short of the
    // width was ended on purpose: text whose widths vary (proportional
    // type, justified, balanced subtitles, optimal-fit wrapping such as
    // `fmt`'s) ends lines short of the width without a break of its own,
    // and a name or `I` may begin the next line mid-sentence.
    let opens = matches!(next.text.as_str(), "*" | "-" | "\u{2022}" | "|" | "#" | ">");
    if opens {
        wanted <= width
    } else {
        4 * wanted <= 3 * width
    }
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
    fn lines_broken_on_purpose_end_sentences() {
        // Headlines and chat posts, one per line without a final period.
        assert_eq!(
            sents("Local Bakery Wins Award\nStorm Knocks Out Power\nStocks Slide as Investors Brace for Higher Rates"),
            [
                "Local Bakery Wins Award",
                "Storm Knocks Out Power",
                "Stocks Slide as Investors Brace for Higher Rates"
            ]
        );
        assert_eq!(
            sents("omg the new season just dropped and i already binged half of it lol\ncant believe it\nwho's going tmrw? need a ride\nanyone awake"),
            [
                // The longest line's break is never one.
                "omg the new season just dropped and i already binged half of it lol cant believe it",
                "who 's going tmrw ? need a ride",
                "anyone awake"
            ]
        );
        // A list, and a line whose period is followed by a lower-case line.
        assert_eq!(
            sents("2 tbsp soy sauce\n1 tsp sesame oil\nlet it rest.\nthen serve it hot over plain rice"),
            [
                "2 tbsp soy sauce",
                "1 tsp sesame oil",
                "let it rest .",
                "then serve it hot over plain rice"
            ]
        );
    }

    #[test]
    fn wrapped_lines_read_on() {
        // Wrapped at 30 columns: each line broke where the next word did
        // not fit, so the paragraph is one sentence.
        let wrapped = "The council voted late on\nTuesday to approve a budget\nthat raises property taxes\nby three percent and adds\nofficers.";
        assert_eq!(sents(wrapped).len(), 1);
        // One line the wrapper could not break does not widen the rest.
        let with_url = "The council voted late on\nTuesday to approve a budget\nthat raises taxes, see https://example.com/budget/2024/final-report.html\nand adds two hundred police\nofficers to the force after\na session that ran until\nmidnight.";
        assert_eq!(sents(with_url).len(), 1);
        // Optimal-fit wrapping (`fmt`) ends lines short of the width: a
        // capital that would have fitted is no sentence start unless the
        // line is clearly short (a name after `by`).
        let balanced = "The new plan was approved after a vote\nthat was held late at night by\nMayor Lee and the council in the old hall.";
        assert_eq!(sents(balanced).len(), 1);
        // After a comma or an opening bracket the sentence goes on.
        assert_eq!(
            sents("Hi all, a quick note on the budget,\nthe vote is on Friday (\nnot Monday)."),
            ["Hi all , a quick note on the budget , the vote is on Friday ( not Monday ) ."]
        );
    }

    #[test]
    fn empty_inputs() {
        assert!(split_sentences("").is_empty());
        assert!(split_sentences(" \n\n ").is_empty());
        assert_eq!(sents("..."), ["..."]);
    }
}
