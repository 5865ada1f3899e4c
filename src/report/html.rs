//! The report as one self-contained HTML file: inline CSS, inline SVG bar
//! charts, no scripts, no fonts or images from anywhere.
//!
//! It is drawn from a [`Report`] alone, so every number it shows is in the
//! report's JSON. Every number also carries the JSON pointer it comes from
//! and its exact value (`data-key="/methods/0/overall/f1"
//! data-value="55.16483516483517"`), which is how the tests check the two
//! agree; charts are `<svg class="chart" id="chart-…">` and their bars
//! `<rect class="bar" data-key=… data-value=…>`.

use std::fmt::Write;

use super::analysis::NO_ANSWER;
use super::{MethodReport, Report, Row};

/// Series colours (colour-blind-safe Tableau 10 order).
const COLOURS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948", "#9c755f",
];

const CSS: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;
margin:2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc;padding-bottom:.2em}
h3{font-size:1.05em;margin-top:1.4em}
p.meta{color:#555;margin-top:0}p.note{color:#555;font-size:.92em;max-width:60em}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
th,td{border:1px solid #ddd;padding:.25em .55em;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;white-space:nowrap}
td.gloss{color:#444;max-width:28em}
code,.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em}
ul.conf{margin:0;padding:0;list-style:none}ul.conf li{margin:.1em 0}
span.gloss{color:#555;font-style:italic}span.count{display:inline-block;min-width:2.2em;text-align:right;font-variant-numeric:tabular-nums}
nav{margin:.6em 0 0;font-size:.92em}nav a{margin-right:.9em;color:#2a5d9f}
svg.chart{display:block;max-width:100%;height:auto;margin:.4em 0 1em}
svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:12px;fill:#222}
svg text.title{font-size:14px;font-weight:600}svg text.axis{fill:#777;font-size:11px}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:baseline}
table.two td,table.two th{text-align:center;min-width:7em}
b.target{background:#fff2a8}td.ok{background:#e8f5e9}td.bad{background:#fdecea}
table.two td.diag{background:#f4f4f4}
";

/// HTML-escape text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number cell: shown rounded, carrying its JSON pointer and exact value.
fn num(key: &str, value: f64, decimals: usize) -> String {
    format!(
        "<td class=\"n\" data-key=\"{}\" data-value=\"{value}\">{value:.decimals$}</td>",
        escape(key)
    )
}

/// A count cell.
fn count(key: &str, value: usize) -> String {
    format!(
        "<td class=\"n\" data-key=\"{}\" data-value=\"{value}\">{value}</td>",
        escape(key)
    )
}

/// The order of decision labels in charts.
const DECISION_ORDER: [&str; 6] = [
    "method",
    "tie",
    "fallback",
    "back-off",
    "single-sense",
    NO_ANSWER,
];

/// One bar of a chart.
struct Bar {
    series: usize,
    value: f64,
    key: String,
    note: String,
}

/// A labelled group of bars (one per series that has a value).
struct Group {
    label: String,
    bars: Vec<Bar>,
}

const WIDTH: f64 = 900.0;
const LABEL_W: f64 = 210.0;
const PLOT_W: f64 = 540.0;
const BAR_H: f64 = 15.0;
const BAR_GAP: f64 = 3.0;
const GROUP_GAP: f64 = 12.0;

/// A horizontal grouped bar chart on a 0–`max` scale.
fn chart(
    out: &mut String,
    id: &str,
    title: &str,
    series: &[&str],
    groups: &[Group],
    max: f64,
    legend: bool,
) {
    let unit = "";
    let max = if max > 0.0 { max } else { 1.0 };
    // Small scales (points lost) need more decimals.
    let dec = if max < 10.0 { 2 } else { 1 };
    let legend_h = if legend { 22.0 } else { 0.0 };
    let top = 26.0 + legend_h;
    let mut h = top;
    for g in groups {
        let n = g.bars.len().max(1) as f64;
        h += n * BAR_H + (n - 1.0) * BAR_GAP + GROUP_GAP;
    }
    let height = h + 22.0;
    let _ = writeln!(
        out,
        "<svg class=\"chart\" id=\"{id}\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{t}\">\n<text class=\"title\" x=\"0\" y=\"16\">{t}</text>",
        t = escape(title)
    );
    if legend {
        let mut x = LABEL_W;
        for (i, s) in series.iter().enumerate() {
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{c}\"/><text x=\"{tx}\" y=\"{ty}\">{s}</text>",
                y = 28.0,
                c = COLOURS[i % COLOURS.len()],
                tx = x + 16.0,
                ty = 38.0,
                s = escape(s)
            );
            x += 28.0 + 7.5 * s.chars().count() as f64;
        }
    }
    // Grid lines and axis labels.
    for k in 0..=4 {
        let v = max * k as f64 / 4.0;
        let x = LABEL_W + PLOT_W * k as f64 / 4.0;
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{h}\" stroke=\"#e4e4e4\"/><text class=\"axis\" x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\">{t}{unit}</text>",
            ty = h + 14.0,
            t = (v * 1000.0).round() / 1000.0
        );
    }
    let mut y = top;
    for g in groups {
        let n = g.bars.len().max(1) as f64;
        let gh = n * BAR_H + (n - 1.0) * BAR_GAP;
        let _ = writeln!(
            out,
            "<text x=\"{x}\" y=\"{ty}\" text-anchor=\"end\">{l}</text>",
            x = LABEL_W - 8.0,
            ty = y + gh / 2.0 + 4.0,
            l = escape(&g.label)
        );
        for (i, b) in g.bars.iter().enumerate() {
            let by = y + i as f64 * (BAR_H + BAR_GAP);
            let w = (PLOT_W * b.value / max).clamp(0.0, PLOT_W);
            let name = series.get(b.series).copied().unwrap_or("");
            let _ = writeln!(
                out,
                "<rect class=\"bar\" data-key=\"{k}\" data-value=\"{v}\" x=\"{LABEL_W}\" y=\"{by}\" width=\"{w:.2}\" height=\"{BAR_H}\" fill=\"{c}\"><title>{tt}</title></rect><text x=\"{tx:.2}\" y=\"{ty}\">{v:.dec$}{unit}{note}</text>",
                k = escape(&b.key),
                v = b.value,
                c = COLOURS[b.series % COLOURS.len()],
                tt = escape(&format!("{name} · {}: {:.dec$}{unit}{}", g.label, b.value, b.note)),
                tx = LABEL_W + w + 4.0,
                ty = by + BAR_H - 3.5,
                note = escape(&b.note),
            );
        }
        y += gh + GROUP_GAP;
    }
    out.push_str("</svg>\n");
}

/// Groups of a per-method breakdown (`field` picks the rows of a method):
/// the union of the row labels in first-seen order, a bar per method.
fn breakdown_groups(
    r: &Report,
    field: &str,
    rows: impl Fn(&MethodReport) -> &Vec<Row>,
    metric: &str,
    value: impl Fn(&Row) -> f64,
) -> Vec<Group> {
    let mut labels: Vec<String> = Vec::new();
    for m in &r.methods {
        for row in rows(m) {
            if !labels.contains(&row.label) {
                labels.push(row.label.clone());
            }
        }
    }
    // Decisions in their natural order, whichever method has which.
    labels.sort_by_key(|l| {
        DECISION_ORDER
            .iter()
            .position(|d| d == l)
            .unwrap_or(DECISION_ORDER.len())
    });
    labels
        .into_iter()
        .map(|label| {
            let bars = r
                .methods
                .iter()
                .enumerate()
                .filter_map(|(mi, m)| {
                    let (ri, row) = rows(m).iter().enumerate().find(|(_, x)| x.label == label)?;
                    Some(Bar {
                        series: mi,
                        value: value(row),
                        key: format!("/methods/{mi}/{field}/{ri}/{metric}"),
                        note: format!("  (n={})", row.metrics.instances),
                    })
                })
                .collect();
            Group { label, bars }
        })
        .collect()
}

/// The smallest "round" scale (4 × 1, 2, 2.5 or 5 × 10^k) at or above `v`.
fn nice_max(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf((v / 4.0).log10().floor());
    for step in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if 4.0 * step * mag >= v {
            return 4.0 * step * mag;
        }
    }
    40.0 * mag
}

/// Sentence with the target in bold.
fn sentence_html(sentence: &str, span: (usize, usize)) -> String {
    match (
        sentence.get(..span.0),
        sentence.get(span.0..span.1),
        sentence.get(span.1..),
    ) {
        (Some(a), Some(t), Some(b)) if span.1 > span.0 => format!(
            "{}<b class=\"target\">{}</b>{}",
            escape(a),
            escape(t),
            escape(b)
        ),
        _ => escape(sentence),
    }
}

fn key_or_dash(k: &Option<String>) -> String {
    k.as_deref().map(escape).unwrap_or_else(|| "—".to_string())
}

/// Render `report` as one HTML page (see the [module docs](self)).
pub fn render(r: &Report) -> String {
    let mut o = String::new();
    let series: Vec<&str> = r.methods.iter().map(|m| m.method.as_str()).collect();
    let legend = series.len() > 1;
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
        t = escape(&r.title)
    );
    let datasets: Vec<String> = r
        .datasets
        .iter()
        .map(|d| format!("{} ({} instances)", escape(&d.name), d.instances))
        .collect();
    let _ = writeln!(
        o,
        "<p class=\"meta\">Data: {} · input: {} · {} gold instances · methods: {} · report built in <span data-key=\"/analysis_seconds\" data-value=\"{s}\">{s:.3}</span> s · wsd {v}</p>",
        datasets.join(", "),
        if r.input == "raw" {
            "raw text through the pipeline"
        } else {
            "the data set's tokens, lemmas and POS"
        },
        r.instances,
        series.iter().map(|s| escape(s)).collect::<Vec<_>>().join(", "),
        s = r.analysis_seconds,
        v = env!("CARGO_PKG_VERSION"),
    );

    let mut nav = vec![("summary", "Scores"), ("pos", "Part of speech")];
    if r.methods.iter().any(|m| !m.by_dataset.is_empty()) {
        nav.push(("dataset", "Data set"));
    }
    nav.extend([
        ("sense", "MFS / LFS"),
        ("candidates", "Candidates"),
        ("decision", "Who decided"),
    ]);
    if r.front_end.is_some() {
        nav.push(("front-end", "Front end"));
    }
    nav.push(("lemmas", "Lemmas"));
    if !r.comparisons.is_empty() {
        nav.push(("compare", "Disagreements"));
    }
    o.push_str("<nav>");
    for (id, label) in nav {
        let _ = write!(o, "<a href=\"#{id}\">{label}</a>");
    }
    o.push_str("</nav>\n");

    // Summary.
    o.push_str("<h2 id=\"summary\">Scores</h2>\n<p class=\"note\">Precision, recall and F1 as the evaluation framework's scorer computes them, in percent; coverage is the share of instances answered.</p>\n<table id=\"table-summary\">\n<tr><th>method</th><th>F1</th><th>P</th><th>R</th><th>coverage</th><th>answered</th><th>instances</th><th>seconds</th></tr>\n");
    for (mi, m) in r.methods.iter().enumerate() {
        let k = |f: &str| format!("/methods/{mi}/overall/{f}");
        let _ = writeln!(
            o,
            "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>{}{}{}{}{}{}{}</tr>",
            COLOURS[mi % COLOURS.len()],
            escape(&m.method),
            num(&k("f1"), m.overall.f1, 1),
            num(&k("precision"), m.overall.precision, 1),
            num(&k("recall"), m.overall.recall, 1),
            num(&k("coverage"), m.overall.coverage, 1),
            count(&k("answered"), m.overall.answered),
            count(&k("instances"), m.overall.instances),
            num(&format!("/methods/{mi}/seconds"), m.seconds, 2),
        );
    }
    o.push_str("</table>\n");
    let overall: Vec<Group> = [
        ("F1", "f1"),
        ("precision", "precision"),
        ("recall", "recall"),
        ("coverage", "coverage"),
    ]
    .iter()
    .map(|&(label, f)| Group {
        label: label.to_string(),
        bars: r
            .methods
            .iter()
            .enumerate()
            .map(|(mi, m)| Bar {
                series: mi,
                value: match f {
                    "f1" => m.overall.f1,
                    "precision" => m.overall.precision,
                    "recall" => m.overall.recall,
                    _ => m.overall.coverage,
                },
                key: format!("/methods/{mi}/overall/{f}"),
                note: String::new(),
            })
            .collect(),
    })
    .collect();
    chart(
        &mut o,
        "chart-overall",
        "Overall (%)",
        &series,
        &overall,
        100.0,
        legend,
    );

    // Part of speech, data set.
    o.push_str("<h2 id=\"pos\">By part of speech</h2>\n");
    let g = breakdown_groups(r, "by_pos", |m| &m.by_pos, "f1", |x| x.metrics.f1);
    chart(
        &mut o,
        "chart-pos",
        "F1 by part of speech (%)",
        &series,
        &g,
        100.0,
        legend,
    );
    if r.methods.iter().any(|m| !m.by_dataset.is_empty()) {
        o.push_str("<h2 id=\"dataset\">By data set</h2>\n");
        let g = breakdown_groups(r, "by_dataset", |m| &m.by_dataset, "f1", |x| x.metrics.f1);
        chart(
            &mut o,
            "chart-dataset",
            "F1 by data set (%)",
            &series,
            &g,
            100.0,
            legend,
        );
    }

    // MFS / LFS, candidates.
    o.push_str("<h2 id=\"sense\">Frequent and rare senses</h2>\n<p class=\"note\">Instances whose gold sense is WordNet's first sense of the lemma (MFS) against the others (LFS): most methods do well only on the first group.</p>\n");
    let g = breakdown_groups(r, "by_sense", |m| &m.by_sense, "f1", |x| x.metrics.f1);
    chart(
        &mut o,
        "chart-sense",
        "F1 on MFS and LFS instances (%)",
        &series,
        &g,
        100.0,
        legend,
    );
    o.push_str("<h2 id=\"candidates\">By number of candidate senses</h2>\n");
    let g = breakdown_groups(
        r,
        "by_candidates",
        |m| &m.by_candidates,
        "f1",
        |x| x.metrics.f1,
    );
    chart(
        &mut o,
        "chart-candidates",
        "F1 by number of candidate senses (%)",
        &series,
        &g,
        100.0,
        legend,
    );

    // Who decided.
    o.push_str("<h2 id=\"decision\">Who decided</h2>\n<p class=\"note\">Accuracy (precision) of the answers of each kind of decision: the method on its own evidence, a tie broken by WordNet's order, a fallback to the first sense for lack of evidence, a later method of a back-off chain, or a lemma with a single sense; n is the number of instances.</p>\n");
    let g = breakdown_groups(
        r,
        "by_decision",
        |m| &m.by_decision,
        "precision",
        |x| x.metrics.precision,
    );
    chart(
        &mut o,
        "chart-decision",
        "Accuracy by decision (%)",
        &series,
        &g,
        100.0,
        legend,
    );
    o.push_str("<table id=\"table-decider\">\n<tr><th>method</th><th>decided by</th><th>instances</th><th>share</th><th>accuracy</th></tr>\n");
    for (mi, m) in r.methods.iter().enumerate() {
        for (ri, row) in m.by_decider.iter().enumerate() {
            let k = |f: &str| format!("/methods/{mi}/by_decider/{ri}/{f}");
            let share = if r.instances == 0 {
                0.0
            } else {
                100.0 * row.metrics.instances as f64 / r.instances as f64
            };
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td>{}<td class=\"n\">{share:.1}</td>{}</tr>",
                escape(&m.method),
                escape(&row.label),
                count(&k("instances"), row.metrics.instances),
                num(&k("precision"), row.metrics.precision, 1),
            );
        }
    }
    o.push_str("</table>\n");

    // Front end.
    if let Some(fe) = &r.front_end {
        o.push_str("<h2 id=\"front-end\">Front end</h2>\n<p class=\"note\">What the text pipeline made of each gold instance: aligned by character span to a pipeline target with the gold lemma and POS (matched), or missed, or found with another POS, another lemma, or a different multiword extent.</p>\n");
        let groups: Vec<Group> = fe
            .classes
            .iter()
            .enumerate()
            .map(|(ci, c)| Group {
                label: c.label.clone(),
                bars: vec![Bar {
                    series: 0,
                    value: c.share,
                    key: format!("/front_end/classes/{ci}/share"),
                    note: format!("  ({})", c.count),
                }],
            })
            .collect();
        chart(
            &mut o,
            "chart-front-end",
            "Gold instances by front-end outcome (%)",
            &["instances"],
            &groups,
            100.0,
            false,
        );
        let g = breakdown_groups(
            r,
            "by_front_end",
            |m| &m.by_front_end,
            "f1",
            |x| x.metrics.f1,
        );
        chart(
            &mut o,
            "chart-front-end-f1",
            "F1 by front-end outcome (%)",
            &series,
            &g,
            100.0,
            legend,
        );
        o.push_str("<table id=\"table-front-end\">\n<tr><th>outcome</th><th>instances</th><th>share</th><th>examples</th></tr>\n");
        for (ci, c) in fe.classes.iter().enumerate() {
            let _ = writeln!(
                o,
                "<tr><td>{}</td>{}{}<td>{}</td></tr>",
                escape(&c.label),
                count(&format!("/front_end/classes/{ci}/count"), c.count),
                num(&format!("/front_end/classes/{ci}/share"), c.share, 1),
                c.examples
                    .iter()
                    .map(|e| escape(e))
                    .collect::<Vec<_>>()
                    .join("<br>"),
            );
        }
        o.push_str("</table>\n");
    }

    // Lemmas.
    o.push_str("<h2 id=\"lemmas\">Lemmas losing the most points</h2>\n<p class=\"note\">Points of recall lost over all instances (wrong or unanswered), with each lemma's most frequent confusions: gold sense → chosen sense.</p>\n");
    for (mi, m) in r.methods.iter().enumerate() {
        let _ = writeln!(o, "<h3>{}</h3>", escape(&m.method));
        let groups: Vec<Group> = m
            .lemmas
            .iter()
            .enumerate()
            .map(|(li, l)| Group {
                label: format!("{}.{}", l.lemma, l.pos),
                bars: vec![Bar {
                    series: mi,
                    value: l.points,
                    key: format!("/methods/{mi}/lemmas/{li}/points"),
                    note: format!("  ({} of {} wrong)", l.wrong + l.unanswered, l.instances),
                }],
            })
            .collect();
        let max = nice_max(m.lemmas.first().map_or(1.0, |l| l.points) * 1.1);
        chart(
            &mut o,
            &format!("chart-lemmas-{mi}"),
            &format!("{}: points of recall lost per lemma", m.method),
            &series,
            &groups,
            max,
            false,
        );
        let _ = writeln!(o, "<table class=\"lemmas\" id=\"table-lemmas-{mi}\">\n<tr><th>lemma</th><th>n</th><th>wrong</th><th>no answer</th><th>points</th><th>confusions: count, gold sense → chosen sense</th></tr>");
        for (li, l) in m.lemmas.iter().enumerate() {
            let k = |f: &str| format!("/methods/{mi}/lemmas/{li}/{f}");
            let _ = write!(
                o,
                "<tr><td>{}.{}</td>{}{}{}{}<td><ul class=\"conf\">",
                escape(&l.lemma),
                escape(&l.pos),
                count(&k("instances"), l.instances),
                count(&k("wrong"), l.wrong),
                count(&k("unanswered"), l.unanswered),
                num(&k("points"), l.points, 2),
            );
            for (ci, c) in l.confusions.iter().enumerate() {
                let _ = write!(
                    o,
                    "<li><span class=\"count\" data-key=\"{}\" data-value=\"{n}\">{n}×</span> <code>{}</code> <span class=\"gloss\">{}</span> → <code>{}</code> <span class=\"gloss\">{}</span></li>",
                    escape(&k(&format!("confusions/{ci}/count"))),
                    escape(&c.gold),
                    escape(&c.gold_gloss),
                    key_or_dash(&c.chosen),
                    escape(&c.chosen_gloss),
                    n = c.count,
                );
            }
            o.push_str("</ul></td></tr>\n");
        }
        o.push_str("</table>\n");
    }

    // Comparisons.
    if !r.comparisons.is_empty() {
        o.push_str("<h2 id=\"compare\">Where two methods disagree</h2>\n");
    }
    for (ci, c) in r.comparisons.iter().enumerate() {
        let k = |f: &str| format!("/comparisons/{ci}/{f}");
        let (a, b) = (escape(&c.a), escape(&c.b));
        let _ = writeln!(
            o,
            "<h3>{a} against {b}</h3>\n<table class=\"two\" id=\"table-compare-{ci}\">\n<tr><th></th><th>{b} right</th><th>{b} wrong</th></tr>\n<tr><th>{a} right</th>{}{}</tr>\n<tr><th>{a} wrong</th>{}{}</tr>\n</table>",
            count(&k("both_right"), c.both_right),
            count(&k("a_only"), c.a_only),
            count(&k("b_only"), c.b_only),
            count(&k("both_wrong"), c.both_wrong),
        );
        let _ = writeln!(
            o,
            "<p class=\"note\">They choose different senses for <span data-key=\"{}\" data-value=\"{d}\">{d}</span> of {} instances. Examples where exactly one is right:</p>",
            escape(&k("disagree")),
            c.instances,
            d = c.disagree,
        );
        let _ = writeln!(o, "<table id=\"table-examples-{ci}\">\n<tr><th>id</th><th>sentence</th><th>gold</th><th>{a} chose</th><th>{b} chose</th><th>right</th></tr>");
        for e in &c.examples {
            let cell = |k: &Option<String>, g: &str, class: &str| {
                format!(
                    "<td class=\"{class}\"><span class=\"key\">{}</span><br><small>{}</small></td>",
                    key_or_dash(k),
                    escape(g)
                )
            };
            let (ca, cb) = if e.right == "a" {
                ("ok", "bad")
            } else {
                ("bad", "ok")
            };
            let _ = writeln!(
                o,
                "<tr><td class=\"key\">{}</td><td>{}</td>{}{}{}<td>{}</td></tr>",
                escape(&e.id),
                sentence_html(&e.sentence, e.span),
                cell(&Some(e.gold.clone()), &e.gold_gloss, "gold"),
                cell(&e.a, &e.a_gloss, ca),
                cell(&e.b, &e.b_gloss, cb),
                if e.right == "a" { &a } else { &b },
            );
        }
        o.push_str("</table>\n");
    }
    o.push_str("</body>\n</html>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{MethodReport, Metrics};

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<b a="x">R&D's</b>"#),
            "&lt;b a=&quot;x&quot;&gt;R&amp;D&#39;s&lt;/b&gt;"
        );
    }

    #[test]
    fn scales_are_round() {
        assert_eq!(nice_max(100.0), 100.0);
        assert_eq!(nice_max(1.94), 2.0);
        assert_eq!(nice_max(0.7), 0.8);
        assert_eq!(nice_max(3.1), 4.0);
        assert_eq!(nice_max(0.0), 1.0);
    }

    #[test]
    fn a_report_renders_without_scripts_and_with_its_numbers() {
        let row = |label: &str, m: Metrics| Row {
            label: label.into(),
            metrics: m,
        };
        let m = Metrics::new(4, 3, 2.0);
        let r = Report {
            title: "t <x>".into(),
            instances: 4,
            methods: vec![MethodReport {
                method: "a&b".into(),
                overall: m.clone(),
                by_pos: vec![row("noun", m.clone())],
                by_decision: vec![row("single-sense", m.clone()), row("method", m.clone())],
                ..MethodReport::default()
            }],
            ..Report::default()
        };
        let page = render(&r);
        assert!(!page.contains("<script"));
        assert!(page.contains("<h1>t &lt;x&gt;</h1>"));
        assert!(page.contains("id=\"chart-decision\""));
        // Decisions in their natural order whatever the rows' order.
        let method = page.find(">method</text>").unwrap();
        let single = page.find(">single-sense</text>").unwrap();
        assert!(method < single);
        let f1 = format!("data-key=\"/methods/0/overall/f1\" data-value=\"{}\"", m.f1);
        assert!(page.contains(&f1), "{page}");
    }
}
