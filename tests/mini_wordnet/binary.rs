//! The binary on the mini WordNet.

use super::*;

fn mini_arg() -> String {
    mini().display().to_string()
}

#[test]
fn senses_command_on_the_mini_wordnet() {
    let out = ok(wsd().args(["--wordnet", &mini_arg(), "senses", "banks", "--pos", "n"]));
    let first = out.lines().next().unwrap();
    for part in [
        "bank%1:17:01::",
        "00002110-n",
        "bank.n.01",
        "[noun.object]",
        "tag count 25",
    ] {
        assert!(first.contains(part), "{part} not in {first:?}\n{out}");
    }
    assert!(
        out.contains("depository_financial_institution.n.01"),
        "{out}"
    );
    let json = ok(wsd().args([
        "--wordnet",
        &mini_arg(),
        "senses",
        "took place",
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "{json}");
    assert_eq!(v[0]["key"], "take_place%2:30:00::");
    assert_eq!(v[0]["name"], "happen.v.01");
    assert_eq!(v[0]["tag_count"], 54);
}

#[test]
fn synset_command_on_the_mini_wordnet() {
    let out = ok(wsd().args([
        "--wordnet",
        &mini_arg(),
        "synset",
        "bank.n.02",
        "--relations",
    ]));
    assert!(
        out.starts_with("00001602-n  depository_financial_institution.n.01"),
        "{out}"
    );
    assert_eq!(
        out.trim_end().lines().last().unwrap().trim(),
        "entity.n.01 > abstraction.n.01 > group.n.01 > institution.n.01 > financial_institution.n.01 > depository_financial_institution.n.01",
        "{out}"
    );
    let (status, _, err) = run(wsd().args(["--wordnet", &mini_arg(), "synset", "bank.n.09"]));
    assert!(!status.status.success());
    assert!(err.contains("bank.n.09"), "{err}");
}

#[test]
fn mini_wordnet_folder_is_found_by_lookup_and_inventory() {
    // Guards against the tests above silently reading another dict.
    let d = lookup();
    assert_eq!(d.dict_dir(), mini().as_path());
    assert_eq!(inv().dir(), mini().as_path());
    assert!(Path::new(&mini()).join("lexnames").is_file());
}
