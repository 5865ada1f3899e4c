//! Progress on stderr. On a terminal: an indicatif bar. Elsewhere (logs,
//! CI, notebooks): one plain line every few seconds — done/total, rate,
//! ETA — for runs long enough to need it. `--quiet` silences both.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed.
const EVERY: Duration = Duration::from_secs(5);

/// A progress report of a run with a known total.
pub struct Progress {
    bar: Option<ProgressBar>,
    lines: Option<Mutex<Lines>>,
}

struct Lines {
    what: String,
    start: Instant,
    last: Instant,
    done: u64,
    total: u64,
}

impl Lines {
    fn maybe_print(&mut self) {
        let now = Instant::now();
        if now.duration_since(self.last) < EVERY {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.start).as_secs_f64();
        let rate = self.done as f64 / secs.max(1e-9);
        let eta = if rate > 0.0 && self.total > self.done {
            format!(", ETA {:.0} s", (self.total - self.done) as f64 / rate)
        } else {
            String::new()
        };
        let pct = 100.0 * self.done as f64 / self.total.max(1) as f64;
        eprintln!(
            "wsd: {}/{} {} ({pct:.0}%), {rate:.0}/s, {secs:.0} s{eta}",
            self.done, self.total, self.what
        );
    }
}

impl Progress {
    /// Progress over `len` units labelled `what` (`targets`, `documents`, `bytes`).
    pub fn new(len: u64, what: &str, quiet: bool) -> Progress {
        if quiet {
            return Progress {
                bar: None,
                lines: None,
            };
        }
        if !std::io::stderr().is_terminal() {
            let now = Instant::now();
            return Progress {
                bar: None,
                lines: Some(Mutex::new(Lines {
                    what: what.to_string(),
                    start: now,
                    last: now,
                    done: 0,
                    total: len,
                })),
            };
        }
        let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        let tmpl = if what == "bytes" {
            "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}"
                .to_string()
        } else {
            format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {what} {{per_sec}} ETA {{eta}}")
        };
        pb.set_style(
            ProgressStyle::with_template(&tmpl).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress {
            bar: Some(pb),
            lines: None,
        }
    }

    fn with_lines(&self, f: impl FnOnce(&mut Lines)) {
        if let Some(l) = &self.lines {
            if let Ok(mut l) = l.lock() {
                f(&mut l);
                l.maybe_print();
            }
        }
    }

    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
        self.with_lines(|l| l.done += n);
    }

    /// `done` of `total` units done.
    pub fn set(&self, done: u64, total: u64) {
        if let Some(b) = &self.bar {
            b.set_length(total);
            b.set_position(done);
        }
        self.with_lines(|l| {
            l.done = done;
            l.total = total;
        });
    }

    /// Remove the bar (plain lines need no clean-up).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
