use super::*;
use proptest::prelude::*;

/// The tokeniser's contract on `text`: every token is the verbatim,
/// non-empty, bounded slice its offsets name; tokens come in order
/// without overlapping; only separators are left between them.
fn check(text: &str) -> Result<Vec<RawToken>, TestCaseError> {
    let toks = tokenize(text);
    let mut last_end = 0;
    for t in &toks {
        prop_assert!(t.start < t.end, "empty token {:?}", t);
        prop_assert!(
            t.start >= last_end,
            "{:?} overlaps or precedes the one before",
            t
        );
        prop_assert!(t.end <= text.len(), "{:?} ends past the text", t);
        prop_assert!(
            text.is_char_boundary(t.start) && text.is_char_boundary(t.end),
            "{:?} cuts a character",
            t
        );
        prop_assert_eq!(&text[t.start..t.end], t.text.as_str());
        prop_assert!(t.end - t.start <= MAX_TOKEN_BYTES, "{:?} too long", t);
        prop_assert!(
            text[last_end..t.start].chars().all(is_separator),
            "non-separator text dropped before {:?}",
            t
        );
        last_end = t.end;
    }
    prop_assert!(
        text[last_end..].chars().all(is_separator),
        "text dropped at the end"
    );
    Ok(toks)
}

/// Strings made of the pieces the rules care about.
fn tricky() -> impl Strategy<Value = String> {
    let parts = vec![
        "a", "Z", "I", "J", "'", "’", ".", "...", "n't", "'s", "U.S.", "e.g.", "Mr", "No",
        "http://", "www.", "x.org", "@", "-", "--", "1", "3.14", "1,000", ",", ":", "/", "%", "$",
        " ", "\n", "\t", "é", "🙂", "\u{301}", "``", "''", "\"", "s", "_", "\u{200B}", "\u{FEFF}",
        "\u{0}", "can", "O'Brien",
    ];
    prop::collection::vec(prop::sample::select(parts), 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn offsets_hold_for_any_string(text in any::<String>()) {
        check(&text)?;
    }

    #[test]
    fn offsets_hold_for_tricky_strings(text in tricky()) {
        check(&text)?;
    }

    /// Runs longer than MAX_TOKEN_BYTES are cut at character boundaries.
    #[test]
    fn offsets_hold_for_long_runs(text in "[a-zé🙂'.\\-]{200,700}( [a-z.]{0,300})?") {
        let toks = check(&text)?;
        prop_assert!(!toks.is_empty());
    }

    /// Tokens do not depend on where the text starts: leading
    /// separators shift every offset and change nothing else.
    #[test]
    fn leading_separators_only_shift_offsets(
        text in tricky(),
        lead in prop::sample::select(vec![" ", "\n\n", "\t \u{200B}"]),
    ) {
        let plain = check(&text)?;
        let shifted = check(&format!("{lead}{text}"))?;
        let moved: Vec<RawToken> = plain
            .into_iter()
            .map(|t| RawToken { start: t.start + lead.len(), end: t.end + lead.len(), ..t })
            .collect();
        prop_assert_eq!(shifted, moved);
    }
}
