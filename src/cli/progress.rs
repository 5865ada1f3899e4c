//! Progress bars on stderr (indicatif), hidden when stderr is not a
//! terminal or with `--quiet`, so logs and pipes stay clean.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` units labelled `what` (`targets`, `documents`, `bytes`).
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
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
    pb
}

/// A spinner with a message, for work of unknown length.
pub fn spinner(msg: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    pb.set_draw_target(ProgressDrawTarget::stderr());
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    pb
}
