//! The report as a short plain-text summary (`wsd compare` on a
//! terminal): the score table, F1 per POS, MFS/LFS, decisions, the worst
//! lemmas and the 2×2 tables. The HTML and JSON have everything.

use std::fmt::Write;

use super::{Report, Row};

/// How many lemmas per method the summary lists.
const LEMMAS: usize = 5;

/// Rows labelled as in the first method's breakdown, one F1 column per method.
fn f1_table(out: &mut String, r: &Report, title: &str, rows: impl Fn(usize) -> Vec<Row>) {
    let mut labels: Vec<String> = Vec::new();
    for mi in 0..r.methods.len() {
        for row in rows(mi) {
            if !labels.contains(&row.label) {
                labels.push(row.label);
            }
        }
    }
    if labels.is_empty() {
        return;
    }
    let w = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(title.len());
    let _ = write!(out, "{title:<w$}");
    for m in &r.methods {
        let _ = write!(out, "  {:>10}", m.method);
    }
    out.push('\n');
    for label in &labels {
        let _ = write!(out, "{label:<w$}");
        for mi in 0..r.methods.len() {
            match rows(mi).iter().find(|x| &x.label == label) {
                Some(x) => {
                    let _ = write!(out, "  {:>10.1}", x.metrics.f1);
                }
                None => out.push_str("             -"),
            }
        }
        out.push('\n');
    }
    out.push('\n');
}

/// The summary (see the [module docs](self)).
pub fn render_text(r: &Report) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}", r.title);
    let _ = writeln!(
        o,
        "{} instances ({}), input: {}\n",
        r.instances,
        r.datasets
            .iter()
            .map(|d| format!("{} {}", d.name, d.instances))
            .collect::<Vec<_>>()
            .join(", "),
        r.input
    );
    let w = r
        .methods
        .iter()
        .map(|m| m.method.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(
        o,
        "{:<w$}  {:>6} {:>6} {:>6} {:>8} {:>9}",
        "method", "F1", "P", "R", "coverage", "seconds"
    );
    for m in &r.methods {
        let s = &m.overall;
        let _ = writeln!(
            o,
            "{:<w$}  {:>6.1} {:>6.1} {:>6.1} {:>8.1} {:>9.2}",
            m.method, s.f1, s.precision, s.recall, s.coverage, m.seconds
        );
    }
    o.push('\n');
    f1_table(&mut o, r, "F1 by POS", |i| r.methods[i].by_pos.clone());
    f1_table(&mut o, r, "F1 by data set", |i| {
        r.methods[i].by_dataset.clone()
    });
    f1_table(&mut o, r, "F1 by gold sense", |i| {
        r.methods[i].by_sense.clone()
    });
    f1_table(&mut o, r, "F1 by candidates", |i| {
        r.methods[i].by_candidates.clone()
    });
    f1_table(&mut o, r, "F1 by front end", |i| {
        r.methods[i].by_front_end.clone()
    });
    for m in &r.methods {
        let _ = writeln!(o, "{}: who decided (instances, accuracy %)", m.method);
        for row in &m.by_decider {
            let _ = writeln!(
                o,
                "  {:<24} {:>6} {:>6.1}",
                row.label, row.metrics.instances, row.metrics.precision
            );
        }
        let _ = writeln!(o, "{}: lemmas losing the most points", m.method);
        for l in m.lemmas.iter().take(LEMMAS) {
            let top = l
                .confusions
                .first()
                .map(|c| {
                    format!(
                        "{} → {} ×{}",
                        c.gold,
                        c.chosen.as_deref().unwrap_or("(none)"),
                        c.count
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "  {:<18} {:>5.2} pts  {}/{} wrong   {top}",
                format!("{}.{}", l.lemma, l.pos),
                l.points,
                l.wrong + l.unanswered,
                l.instances
            );
        }
        o.push('\n');
    }
    if let Some(fe) = &r.front_end {
        o.push_str("front end (gold instances)\n");
        for c in &fe.classes {
            let _ = writeln!(o, "  {:<20} {:>6} {:>6.1}%", c.label, c.count, c.share);
        }
        o.push('\n');
    }
    for c in &r.comparisons {
        let w = c.a.len().max(c.b.len()) + 8;
        let _ = writeln!(
            o,
            "{} against {} (they disagree on {})",
            c.a, c.b, c.disagree
        );
        let _ = writeln!(
            o,
            "{:<w$} {:>w$} {:>w$}",
            "",
            format!("{} right", c.b),
            format!("{} wrong", c.b)
        );
        let _ = writeln!(
            o,
            "{:<w$} {:>w$} {:>w$}",
            format!("{} right", c.a),
            c.both_right,
            c.a_only
        );
        let _ = writeln!(
            o,
            "{:<w$} {:>w$} {:>w$}\n",
            format!("{} wrong", c.a),
            c.b_only,
            c.both_wrong
        );
    }
    o
}
