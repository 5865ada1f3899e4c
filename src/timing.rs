//! Wall-clock phase timings on stderr, for finding where a run's time goes
//! (issue 13): with `WSD_TIMING=1` in the environment, each timed phase
//! prints `wsd: timing: PHASE 0.123 s (ends at 1.456 s)` when it ends,
//! times measured from [`start`] (called first thing in `main`). Off by
//! default and cheap when off (one relaxed load), so phases can stay
//! timed in the code; the lines go to stderr only, never into results.

use std::sync::OnceLock;
use std::time::Instant;

static START: OnceLock<Instant> = OnceLock::new();
static ENABLED: OnceLock<bool> = OnceLock::new();

/// Marks the start of the process (later calls change nothing).
pub fn start() {
    START.get_or_init(Instant::now);
}

/// Whether `WSD_TIMING` is set (to anything but empty or `0`).
pub fn enabled() -> bool {
    *ENABLED
        .get_or_init(|| std::env::var_os("WSD_TIMING").is_some_and(|v| !v.is_empty() && v != "0"))
}

/// Seconds since [`start`] (or since the first call of anything here).
pub fn now() -> f64 {
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// A phase being timed: prints its duration when dropped (if enabled).
#[must_use = "the phase ends when this is dropped"]
pub struct Phase {
    name: &'static str,
    begun: Option<Instant>,
}

/// Starts timing `name`; the phase ends when the result is dropped.
pub fn phase(name: &'static str) -> Phase {
    Phase {
        name,
        begun: enabled().then(Instant::now),
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        if let Some(t) = self.begun {
            eprintln!(
                "wsd: timing: {} {:.3} s (ends at {:.3} s)",
                self.name,
                t.elapsed().as_secs_f64(),
                now()
            );
        }
    }
}
