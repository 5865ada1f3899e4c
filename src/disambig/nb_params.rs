//! Checking Naive Bayes hyper-parameters at the boundary: `--nb-params`
//! JSON with unknown fields (a typo such as `"alpa"`) or values out of
//! range is refused with the field's name, rather than training with
//! defaults or NaN.

use super::naive_bayes::NbParams;
use crate::{Error, Result};

impl NbParams {
    /// Parse `--nb-params` JSON over the defaults: every field must be one
    /// of [`NbParams`]'s (nested `weights` too), and the result must pass
    /// [`NbParams::validate`].
    pub fn from_json(json: &str) -> Result<NbParams> {
        let bad = |msg: String| Error::bad_parameter("--nb-params", short(json), msg);
        let given: serde_json::Value =
            serde_json::from_str(json).map_err(|e| bad(format!("not JSON: {e}")))?;
        let known = serde_json::to_value(NbParams::default()).expect("params serialise");
        unknown_fields(&given, &known, "").map_err(bad)?;
        let p: NbParams = serde_json::from_value(given).map_err(|e| bad(e.to_string()))?;
        p.validate()?;
        Ok(p)
    }

    /// Range checks, naming the field: `alpha` finite and > 0, weights and
    /// `prior_wordnet` finite and ≥ 0, `colloc_width` 1–3, windows ≤ 100.
    pub fn validate(&self) -> Result<()> {
        let check = |name: &str, v: f64, ok: bool, msg: &str| {
            if v.is_finite() && ok {
                Ok(())
            } else {
                Err(Error::bad_parameter(name, v, msg))
            }
        };
        check(
            "alpha",
            self.alpha,
            self.alpha > 0.0,
            "must be finite and > 0",
        )?;
        check(
            "prior_wordnet",
            self.prior_wordnet,
            self.prior_wordnet >= 0.0,
            "must be finite and ≥ 0",
        )?;
        let w = &self.weights;
        for (name, v) in [
            ("weights.window", w.window),
            ("weights.sentence", w.sentence),
            ("weights.colloc", w.colloc),
            ("weights.pos", w.pos),
            ("weights.ngram", w.ngram),
        ] {
            check(name, v, v >= 0.0, "must be finite and ≥ 0")?;
        }
        if !(1..=3).contains(&self.colloc_width) {
            return Err(Error::bad_parameter(
                "colloc_width",
                self.colloc_width,
                "must be 1–3",
            ));
        }
        for (name, v) in [
            ("window", self.window),
            ("context_sentences", self.context_sentences),
        ] {
            if v > 100 {
                return Err(Error::bad_parameter(name, v, "must be at most 100"));
            }
        }
        Ok(())
    }
}

/// At most 80 characters of `s`, with `…` when cut.
fn short(s: &str) -> String {
    crate::error::excerpt(s)
}

fn unknown_fields(
    given: &serde_json::Value,
    known: &serde_json::Value,
    at: &str,
) -> std::result::Result<(), String> {
    let (Some(g), Some(k)) = (given.as_object(), known.as_object()) else {
        if at.is_empty() && !given.is_object() {
            return Err("expected a JSON object, e.g. '{\"alpha\": 1.0}'".into());
        }
        return Ok(());
    };
    for (name, v) in g {
        let path = if at.is_empty() {
            name.clone()
        } else {
            format!("{at}.{name}")
        };
        match k.get(name) {
            None => {
                let mut names: Vec<&str> = k.keys().map(String::as_str).collect();
                names.sort_unstable();
                return Err(format!(
                    "unknown field {path:?}; known: {}",
                    names.join(", ")
                ));
            }
            Some(kv) => unknown_fields(v, kv, &path)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_and_out_of_range_values_are_refused() {
        assert_eq!(NbParams::from_json("{}").unwrap(), NbParams::default());
        let e = NbParams::from_json(r#"{"alpa": 2}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"alpa\""), "{e}");
        let e = NbParams::from_json(r#"{"weights": {"colocs": 2}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("weights.colocs"), "{e}");
        for bad in [
            r#"{"alpha": 0}"#,
            r#"{"alpha": -1}"#,
            r#"{"colloc_width": 0}"#,
        ] {
            assert!(NbParams::from_json(bad).is_err(), "{bad}");
        }
        let e = NbParams::from_json(r#"{"alpha": 0}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("alpha = 0"), "{e}");
        assert!(NbParams::from_json("[1]").is_err());
        assert_eq!(NbParams::from_json(r#"{"alpha": 1.0}"#).unwrap().alpha, 1.0);
    }
}
