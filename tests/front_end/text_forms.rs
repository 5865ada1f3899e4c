//! Text as people type and typeset it: typographic apostrophes and
//! ligatures, lower-case `i`, sentences and titles in capitals, words
//! hyphenated at a line end.

use super::*;

/// Text typeset with curly apostrophes finds WordNet's ASCII spellings:
/// `o’clock` and `bull’s-eye` were no lemma at all, so no target.
#[test]
fn typographic_apostrophes_find_wordnet_lemmas() {
    let out =
        tag_mfs("We met at five o\u{2019}clock and he hit the bull\u{2019}s-eye.\n".as_bytes());
    let rows = tsv_rows(&out);
    let clock = row_of(&rows, "o\u{2019}clock");
    assert_eq!((clock[6], clock[7]), ("o'clock", "r"), "{out}");
    assert!(clock[8].starts_with("o'clock%4"), "{out}");
    let eye = row_of(&rows, "bull\u{2019}s-eye");
    assert_eq!((eye[6], eye[7]), ("bull's-eye", "n"), "{out}");
}

/// Typeset text is tagged as its ASCII spelling is: the models were
/// learned on SemCor's `` `` `` / `''` / `'`, and read a curly quote or
/// apostrophe as an unknown word (`the Grizzlies’ winning streak` made
/// `Grizzlies` WordNet's grizzly bear, where `Grizzlies '` is a group).
#[test]
fn typeset_text_is_tagged_as_its_ascii_spelling() {
    let ascii = "It was Nischwitz ' third straight victory and ran the Grizzlies ' winning streak to four. \
He said, ``They can't win at Ebbetts Field -- not today.''\n";
    let typeset = "It was Nischwitz \u{2019} third straight victory and ran the Grizzlies \u{2019} winning streak to four. \
He said, \u{201C}They can\u{2019}t win at Ebbetts Field \u{2014} not today.\u{201D}\n";
    let columns = |text: &str| -> Vec<(String, String, String)> {
        tsv_rows(&tag_mfs(text.as_bytes()))
            .into_iter()
            .skip(1)
            .map(|r| {
                // Punctuation and clitics keep their own spelling as lemma.
                let lemma = r[6].replace('\u{2019}', "'");
                (lemma, r[7].to_string(), r[8].to_string())
            })
            .filter(|(l, _, _)| l.chars().any(char::is_alphanumeric))
            .collect()
    };
    assert_eq!(columns(typeset), columns(ascii));
}

/// Text written all in lower case keeps its pronoun: a lone `i` was a
/// noun target (WordNet's iodine) every time.
#[test]
fn lower_case_i_is_the_pronoun() {
    let out = tag_mfs(b"i think i will go home because i am tired.\n");
    let rows = tsv_rows(&out);
    let is: Vec<&Vec<&str>> = rows.iter().filter(|r| r[5] == "i").collect();
    assert_eq!(is.len(), 3, "{out}");
    for r in is {
        assert_eq!((r[7], r[8]), ("-", "-"), "{out}");
    }
    assert!(rows.iter().any(|r| r[6] == "think" && r[7] == "v"), "{out}");
}

/// A sentence in capitals is read as ordinary text would be: `THE` and
/// `TO` were `group`s (unknown acronyms) and every word a proper noun.
#[test]
fn a_sentence_in_capitals_is_read_recased() {
    let out = tag_mfs(b"THE GRAND JURY SAID IT WOULD APPEAL TO THE U.S. SUPREME COURT.\n");
    let rows = tsv_rows(&out);
    let row = |w: &str| row_of(&rows, w);
    for function_word in ["THE", "IT", "TO"] {
        assert_eq!(row(function_word)[8], "-", "{function_word}: {out}");
    }
    assert_eq!((row("SAID")[6], row("SAID")[7]), ("say", "v"), "{out}");
    assert_eq!(row("GRAND JURY")[6], "grand_jury", "{out}");
    assert_eq!(row("SUPREME COURT")[6], "supreme_court", "{out}");
    assert_eq!(row("U.S.")[6], "u.s.", "{out}");
}

/// A word hyphenated at a line end (hard-wrapped or PDF-extracted text)
/// is read as the word: with its hyphen when WordNet writes it so
/// (`well-known`), without when the hyphen was the typesetter's
/// (`con-`⏎`tinued`, a soft hyphen), and the rows say what the unbroken
/// text says. Before, `con` was a verb target and `tinued` no word.
#[test]
fn words_hyphenated_at_a_line_end_are_read_whole() {
    let broken = "The well-\nknown judge con-\ntinued the inves\u{AD}tigation of the self-\nmade man's accounts.\n";
    let whole =
        "The well-known judge continued the investigation of the self-made man's accounts.\n";
    let senses = |out: &str| -> Vec<(String, String, String)> {
        tsv_rows(out)
            .iter()
            .skip(1)
            .map(|r| (r[6].to_string(), r[7].to_string(), r[8].to_string()))
            .collect()
    };
    let (a, b) = (tag_mfs(broken.as_bytes()), tag_mfs(whole.as_bytes()));
    assert_eq!(senses(&a), senses(&b), "{a}\n{b}");
    let rows = tsv_rows(&a);
    let r = row_of(&rows, "con- tinued");
    assert_eq!((r[6], r[7]), ("continue", "v"), "{a}");
    let (start, end): (usize, usize) = (r[3].parse().unwrap(), r[4].parse().unwrap());
    assert_eq!(&broken[start..end], "con-\ntinued");
    assert_eq!(row_of(&rows, "well- known")[6], "well-known", "{a}");
}

/// A heading or headline in title case is read as its sentence-case
/// spelling (`Primary Election` was read as a person's name), while a
/// list of names set as a sentence stays names.
#[test]
fn a_title_in_title_case_is_read_recased() {
    let title = "Grand Jury Praises Atlanta for the Conduct of Its Primary Election\n";
    let plain = "Grand jury praises Atlanta for the conduct of its primary election\n";
    let columns = |out: &str| -> Vec<(String, String, String)> {
        tsv_rows(out)
            .iter()
            .skip(1)
            .map(|r| (r[6].to_lowercase(), r[7].to_string(), r[8].to_lowercase()))
            .collect()
    };
    let (a, b) = (tag_mfs(title.as_bytes()), tag_mfs(plain.as_bytes()));
    assert_eq!(columns(&a), columns(&b), "{a}\n{b}");
    assert_eq!(row_of(&tsv_rows(&a), "Praises")[7], "v", "{a}");
    let names =
        tag_mfs(b"Among them are Robert Hillyer, John Peal Bishop and Maxwell Bodenheim.\n");
    let rows = tsv_rows(&names);
    assert_eq!(row_of(&rows, "John Peal Bishop")[6], "person", "{names}");
}

/// Modern text, one headline, list item or post a line without a final
/// period: each line broken on purpose is a sentence of its own (they
/// ran into one: the headlines of a front page were one sentence, a
/// recipe's ingredients another); a file, library or version name is one
/// token (`LICENSE.md` was `LICENSE` `.` `md`, two noun targets), and no
/// person.
#[test]
fn lines_and_dotted_names_of_modern_text() {
    let text = "Local Bakery Wins Award\nStorm Knocks Out Power\n\
See LICENSE.md for details and install Node.js 18 or v3.2.1 first.\n";
    let out = tag_mfs(text.as_bytes());
    let rows = tsv_rows(&out);
    let sentence = |w: &str| row_of(&rows, w)[1];
    assert_eq!(
        [
            sentence("Local"),
            sentence("Storm"),
            sentence("See"),
            sentence("first")
        ],
        ["0", "1", "2", "2"],
        "{out}"
    );
    for name in ["LICENSE.md", "Node.js", "v3.2.1"] {
        assert_ne!(row_of(&rows, name)[6], "person", "{out}");
    }
    assert!(!rows.iter().any(|r| r[5] == "md" || r[5] == "js"), "{out}");
}

/// An emoji is one token (with its variation selector, skin tone and
/// joined pictographs), its own lemma and no target; the selector U+FE0F
/// was a word of its own, and the tagger called emoji numbers, adjectives
/// or proper nouns.
#[test]
fn an_emoji_is_one_token_and_no_target() {
    let text = "so proud of my little brother \u{1F393}\u{2764}\u{FE0F} he worked so hard \u{1F3C3}\u{200D}\u{2640}\u{FE0F}\n";
    let out = tag_mfs(text.as_bytes());
    let rows = tsv_rows(&out);
    for emoji in [
        "\u{2764}\u{FE0F}",
        "\u{1F3C3}\u{200D}\u{2640}\u{FE0F}",
        "\u{1F393}",
    ] {
        let r = row_of(&rows, emoji);
        assert_eq!((r[6], r[7]), (emoji, "-"), "{out}");
    }
    assert!(!rows.iter().any(|r| r[5] == "\u{FE0F}"), "{out}");
    assert_eq!(row_of(&rows, "worked")[7], "v", "{out}");
}
