//! `wsd` used as a library, end to end, on the data `scripts/fetch-data.sh`
//! puts in place (run from a checkout, or with the data home filled):
//! WordNet look-ups, plain text tagged in memory, a Naive Bayes model
//! trained on a slice of SemCor without saving it, a method of one's own
//! in a chain, and the SemEval-2007 dev set scored.
//!
//! ```sh
//! cargo run --release --example library -- "He sat on the bank of the river."
//! ```

use wsd::corpus::{read_semcor, Document, Split, Target};
use wsd::disambig::naive_bayes::{NaiveBayes, NbParams};
use wsd::disambig::{Chain, Disambiguator, MethodSpec, Prediction};
use wsd::eval::{evaluate, framework, Dataset, Input};
use wsd::pipeline::Pipeline;
use wsd::resources::{self, ResourcePaths, Resources};
use wsd::text::MweMatcher;
use wsd::wordnet::{self, Inventory, PointerKind, Pos, Sense};

/// WordNet's last sense of nouns; abstains on the other categories, so a
/// chain asks its next method about them.
struct LastNounSense;

impl Disambiguator for LastNounSense {
    fn name(&self) -> &str {
        "last-noun"
    }

    fn disambiguate(
        &self,
        _inv: &Inventory,
        _doc: &Document,
        target: &Target,
        candidates: &[Sense],
    ) -> Option<Prediction> {
        let last = candidates.last().filter(|_| target.pos == Pos::Noun)?;
        Some(Prediction::decided(last.key.clone(), self.name(), 1.0))
    }
}

fn main() -> wsd::Result<()> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "He sat on the bank of the river and watched the boats.".into());
    // Nothing is loaded until asked for; each resource is loaded once.
    let res = Resources::new(ResourcePaths::default());
    let inv = res.inventory()?;

    // 1. WordNet: senses, glosses, hypernyms, ids in any spelling, morphy.
    for sense in inv.senses("bank", Pos::Noun).iter().take(3) {
        let syn = inv.get(sense.synset).expect("a sense's synset");
        let hypernyms: Vec<String> = syn
            .related(PointerKind::Hypernym)
            .filter_map(|h| inv.get(h))
            .map(|h| wordnet::canonical_name(inv, h))
            .collect::<wsd::Result<_>>()?;
        println!(
            "{} {}: {} (is a {})",
            sense.key,
            wordnet::canonical_name(inv, syn)?,
            syn.definition,
            hypernyms.join(", ")
        );
    }
    let id = wordnet::resolve_id(inv, "bank.n.02")?;
    println!("bank.n.02 = {}", wordnet::offset_string(id, None));
    println!("went → {:?}", inv.morphy("went", Pos::Verb));

    // 2. Plain text in memory, with `wsd tag`'s default pipeline.
    let mwe = MweMatcher::new(inv);
    let pipeline = Pipeline::new(inv, res.pos_tagger()?, Some(&mwe));
    let spec = if res.has_model("nb") {
        "nb,lesk-ext"
    } else {
        "lesk-ext"
    };
    let method = spec.parse::<MethodSpec>()?.build(&res)?;
    let tagged = wsd::tagging::analyse(&pipeline, method.as_ref(), inv, ("text", &text, 0), false);
    for (target, pred) in tagged.doc.targets().iter().zip(&tagged.preds) {
        let token = tagged.doc.target_token(target);
        match pred {
            Some(p) => println!(
                "{}\t{}\t{}\t{}\t{}\t{:.3}",
                token.text,
                target.lemma,
                target.pos,
                p.key,
                p.decided_by(),
                p.score
            ),
            None => println!("{}\t{}\t{}\t-", token.text, target.lemma, target.pos),
        }
    }

    // 3. The dev set of the evaluation framework, where `wsd eval
    //    --framework` looks for it.
    let sets = framework::discover(&resources::framework_dir(None))?;
    let Some(dev) = sets.iter().find(|s| s.name == framework::DEV_SET) else {
        println!("no {} set in the framework folder", framework::DEV_SET);
        return Ok(());
    };
    let data = Dataset::from_xml(&dev.xml, &dev.gold)?;

    // 4. Naive Bayes trained on a slice of SemCor, used without saving it,
    //    and a method of one's own, each backed off to mfs.
    let semcor = read_semcor(resources::semcor_dir(None), Split::Train)?;
    let slice = &semcor[..semcor.len().min(40)];
    let nb = NaiveBayes::train(inv, slice, &NbParams::default(), &|_, _| {});
    let mfs = || "mfs".parse::<MethodSpec>()?.build(&res);
    let chains = [
        Chain::new(vec![Box::new(&nb), mfs()?]),
        Chain::new(vec![Box::new(LastNounSense), mfs()?]),
        Chain::new(vec![method, mfs()?]),
    ];
    for chain in &chains {
        let ev = evaluate(chain, inv, &data.docs, &data.gold, Input::Gold, &|_| {});
        let s = &ev.report.overall;
        println!(
            "{:<16} P {:.1} R {:.1} F1 {:.1} on {} ({} instances)",
            chain.name(),
            s.precision,
            s.recall,
            s.f1,
            dev.name,
            s.instances
        );
    }
    Ok(())
}
