//! The library as a program of its own uses it: typed errors to branch on,
//! plain text tagged in memory with `wsd tag`'s default pipeline.

use wsd::disambig::naive_bayes::NaiveBayes;
use wsd::disambig::MethodSpec;
use wsd::pipeline::Pipeline;
use wsd::wordnet::Inventory;
use wsd::Error;

use crate::util::{inventory, tagger_and_matcher, tempdir};

/// A folder that is no dict folder is `WordNetNotFound` for `load` as for
/// `open`: missing, or the parent of `dict/`.
#[test]
fn library_load_of_no_dict_folder_is_wordnet_not_found() {
    let tmp = tempdir();
    let missing = tmp.path().join("nowhere");
    for dir in [missing.as_path(), tmp.path()] {
        match Inventory::load(dir) {
            Err(Error::WordNetNotFound { looked }) => {
                assert_eq!(looked, dir.display().to_string())
            }
            Err(e) => panic!("{}: {e:?}", dir.display()),
            Ok(_) => panic!("{} loaded", dir.display()),
        }
        assert!(matches!(
            Inventory::open(Some(dir)),
            Err(Error::WordNetNotFound { .. })
        ));
    }
}

/// A model file of another method is `Error::WrongMethod`, with the
/// message the CLI has always printed.
#[test]
fn library_model_of_another_method_is_a_typed_error() {
    let tmp = tempdir();
    let p = tmp.path().join("pos.wsd");
    wsd::model_io::write_model(&p, "pos", "sha", serde_json::json!({}), b"body").unwrap();
    match NaiveBayes::load_with_checksum(&p, "sha") {
        Err(e @ Error::WrongMethod { .. }) => {
            let Error::WrongMethod {
                path,
                expected,
                found,
            } = &e
            else {
                unreachable!()
            };
            assert_eq!((path, expected.as_str(), found.as_str()), (&p, "nb", "pos"));
            assert_eq!(
                e.to_string(),
                format!(
                    "model {}: a model of method pos, not nb; pass a model written by `wsd train --method nb`",
                    p.display()
                )
            );
        }
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("a pos model loaded as nb"),
    }
}

/// `Pipeline::new` and `tagging::analyse`: one answer per target of the
/// analysed document, in `doc.targets()` order; text without words gives
/// no targets and no panic.
#[test]
fn library_tags_text_in_memory() {
    let inv = inventory();
    let (tagger, mwe) = tagger_and_matcher();
    let pipeline = Pipeline::new(inv, &tagger, Some(&mwe));
    let res = wsd::resources::Resources::new(Default::default());
    let method = "mfs".parse::<MethodSpec>().unwrap().build(&res).unwrap();
    let text = "He sat on the bank of the river. She took part in the talks.";
    let a = wsd::tagging::analyse(&pipeline, method.as_ref(), inv, ("d", text, 0), false);
    let targets = a.doc.targets();
    assert_eq!(targets.len(), a.preds.len());
    let answered: Vec<(&str, &str)> = targets
        .iter()
        .zip(&a.preds)
        .filter_map(|(t, p)| {
            Some((
                a.doc.target_token(t).text.as_str(),
                p.as_ref()?.key.as_str(),
            ))
        })
        .collect();
    assert!(
        answered.contains(&("bank", "bank%1:17:01::")),
        "{answered:?}"
    );
    for (word, key) in &answered {
        assert!(inv.has_key(key), "{word}: {key}");
    }
    for text in ["", "   \n\n", ".", "?!... --- ;;", "€€€ ©"] {
        let a = wsd::tagging::analyse(&pipeline, method.as_ref(), inv, ("d", text, 0), false);
        assert!(a.preds.is_empty() && a.doc.targets().is_empty(), "{text:?}");
    }
}
