//! Verb frames: the 35 generic sentence frames of WordNet 3.0
//! (`frames.vrb`, also NLTK's `VERB_FRAME_STRINGS`), and a frame written
//! out for one verb, as `wsd synset` shows them.
//!
//! The strings are fixed by WordNet 3.0 and kept here rather than read
//! from `frames.vrb`, which some dict copies lack (Debian's
//! `wordnet-base`, NLTK's data), as NLTK does.
//!
//! `----` stands for the verb. Princeton's `wn` prints the strings as they
//! are; NLTK substitutes the bare lemma (`Somebody run something`). We
//! inflect it as the frame asks: `----s` takes the third person (`runs`,
//! `catches`, `carries`, `is`, `has`), `----ing` the present participle
//! (`making`, `lying`; a short verb ending in one vowel and one consonant
//! doubles it, `running`). Regular English rules only; for a multiword
//! verb the first word is inflected (`takes place`).

/// The frame strings, frame `n` at index `n - 1`.
pub const FRAMES: [&str; 35] = [
    "Something ----s",
    "Somebody ----s",
    "It is ----ing",
    "Something is ----ing PP",
    "Something ----s something Adjective/Noun",
    "Something ----s Adjective/Noun",
    "Somebody ----s Adjective",
    "Somebody ----s something",
    "Somebody ----s somebody",
    "Something ----s somebody",
    "Something ----s something",
    "Something ----s to somebody",
    "Somebody ----s on something",
    "Somebody ----s somebody something",
    "Somebody ----s something to somebody",
    "Somebody ----s something from somebody",
    "Somebody ----s somebody with something",
    "Somebody ----s somebody of something",
    "Somebody ----s something on somebody",
    "Somebody ----s somebody PP",
    "Somebody ----s something PP",
    "Somebody ----s PP",
    "Somebody's (body part) ----s",
    "Somebody ----s somebody to INFINITIVE",
    "Somebody ----s somebody INFINITIVE",
    "Somebody ----s that CLAUSE",
    "Somebody ----s to somebody",
    "Somebody ----s to INFINITIVE",
    "Somebody ----s whether INFINITIVE",
    "Somebody ----s somebody into V-ing something",
    "Somebody ----s something with something",
    "Somebody ----s INFINITIVE",
    "Somebody ----s VERB-ing",
    "It ----s that CLAUSE",
    "Something ----s INFINITIVE",
];

/// Frame `number` (1–35) with `----` replaced by `lemma` (`_` as spaces),
/// inflected as the frame asks; `None` for a number WordNet does not have.
pub fn frame_string(number: u8, lemma: &str) -> Option<String> {
    let frame = FRAMES.get((number as usize).checked_sub(1)?)?;
    let lemma = lemma.replace('_', " ");
    let (first, rest) = match lemma.split_once(' ') {
        Some((f, r)) => (f.to_string(), format!(" {r}")),
        None => (lemma.clone(), String::new()),
    };
    Some(if frame.contains("----s") {
        frame.replacen("----s", &format!("{}{rest}", third_person(&first)), 1)
    } else if frame.contains("----ing") {
        frame.replacen("----ing", &format!("{}{rest}", participle(&first)), 1)
    } else {
        frame.replacen("----", &lemma, 1)
    })
}

fn is_vowel(c: char) -> bool {
    "aeiou".contains(c)
}

/// `runs`, `catches`, `carries`, `goes`; `is`, `has`.
fn third_person(verb: &str) -> String {
    match verb {
        "be" => return "is".into(),
        "have" => return "has".into(),
        _ => {}
    }
    let chars: Vec<char> = verb.chars().collect();
    let n = chars.len();
    if ["s", "x", "z", "ch", "sh", "o"]
        .iter()
        .any(|e| verb.ends_with(e))
        && n > 1
    {
        return format!("{verb}es");
    }
    if n > 1 && chars[n - 1] == 'y' && !is_vowel(chars[n - 2]) {
        return format!("{}ies", &verb[..verb.len() - 1]);
    }
    format!("{verb}s")
}

/// `making`, `lying`, `seeing`, `running`, `opening`.
fn participle(verb: &str) -> String {
    let chars: Vec<char> = verb.chars().collect();
    let n = chars.len();
    if let Some(stem) = verb.strip_suffix("ie") {
        return format!("{stem}ying");
    }
    if n > 2
        && verb.ends_with('e')
        && !verb.ends_with("ee")
        && !verb.ends_with("ye")
        && !verb.ends_with("oe")
    {
        return format!("{}ing", &verb[..verb.len() - 1]);
    }
    // One vowel group, ending vowel + consonant (not w, x, y): double it.
    let groups = chars
        .iter()
        .zip(std::iter::once(&'#').chain(chars.iter()))
        .filter(|(c, prev)| is_vowel(**c) && !is_vowel(**prev))
        .count();
    if n >= 3
        && groups == 1
        && !is_vowel(chars[n - 1])
        && !"wxy".contains(chars[n - 1])
        && is_vowel(chars[n - 2])
        && !is_vowel(chars[n - 3])
    {
        return format!("{verb}{}ing", chars[n - 1]);
    }
    format!("{verb}ing")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_written_out_for_the_verb() {
        assert_eq!(frame_string(8, "run").unwrap(), "Somebody runs something");
        assert_eq!(frame_string(3, "rain").unwrap(), "It is raining");
        assert_eq!(frame_string(4, "run").unwrap(), "Something is running PP");
        assert_eq!(
            frame_string(2, "take_place").unwrap(),
            "Somebody takes place"
        );
        assert_eq!(frame_string(1, "catch").unwrap(), "Something catches");
        assert_eq!(frame_string(2, "carry").unwrap(), "Somebody carries");
        assert_eq!(frame_string(2, "play").unwrap(), "Somebody plays");
        assert_eq!(frame_string(2, "go").unwrap(), "Somebody goes");
        assert_eq!(frame_string(3, "make").unwrap(), "It is making");
        assert_eq!(frame_string(3, "lie").unwrap(), "It is lying");
        assert_eq!(frame_string(3, "see").unwrap(), "It is seeing");
        assert_eq!(frame_string(3, "open").unwrap(), "It is opening");
        assert_eq!(frame_string(3, "sit").unwrap(), "It is sitting");
        assert_eq!(frame_string(3, "snow").unwrap(), "It is snowing");
        assert_eq!(frame_string(26, "be").unwrap(), "Somebody is that CLAUSE");
        assert_eq!(frame_string(0, "run"), None);
        assert_eq!(frame_string(36, "run"), None);
    }

    #[test]
    fn the_table_is_wordnet_3_0s() {
        // Frame 33 and the last one, as in frames.vrb.
        assert_eq!(FRAMES[32], "Somebody ----s VERB-ing");
        assert_eq!(FRAMES[34], "Something ----s INFINITIVE");
        assert!(FRAMES.iter().all(|f| f.contains("----")));
    }
}
