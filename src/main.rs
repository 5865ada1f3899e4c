//! The `wsd` binary: parse arguments, run, map errors to exit codes.
//! Results go to stdout, diagnostics to stderr; a closed pipe
//! (`wsd tag … | head`) is a normal end, not an error.

use std::process::ExitCode;

use clap::Parser;

mod cli;

/// mimalloc: the inventory is a million small allocations made from
/// several threads; glibc's malloc spends more time on them than parsing does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the 16th entry of `mi_option_e` in
/// the vendored mimalloc.h, v2 and v3 alike; the Rust bindings don't name it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keep freed pages instead of handing them back to the kernel a second
/// later (mimalloc v3's default).
/// `wsd tag` frees and allocates each block's tokens, tags and output again
/// and again; with the purge, the kernel zeroed the pages each time they
/// came back (`wsd tag --method mfs --threads 1` on SemCor's 4.3 MB text:
/// 56k page faults, against 666 without, and 0.7-1.8 s of system time
/// against 0.3-0.6 s). The cost is some resident memory that stays
/// mapped: peak RSS 345-352 MB → 358-392 MB on that run.
fn keep_freed_pages() {
    // SAFETY: sets one integer option; mimalloc reads it on its next purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

fn main() -> ExitCode {
    keep_freed_pages();
    wsd::timing::start();
    let args = cli::Cli::parse();
    wsd::atomic::install_signal_cleanup();
    if cli::writes_stdout(&args) && stdout_closed() {
        eprintln!("wsd: error: standard output is closed; the results would be lost (redirect it to a file or /dev/null)");
        return ExitCode::from(2);
    }
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
                    || e.downcast_ref::<serde_json::Error>()
                        .is_some_and(|j| j.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
                    || e.downcast_ref::<csv::Error>().is_some_and(|c| {
                        matches!(c.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe)
                    })
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("wsd: error: {err:#}");
            if let Some(hint) = data_home_hint(&err) {
                eprintln!("wsd: {hint}");
            }
            ExitCode::from(2)
        }
    }
}

/// What to do about a missing file: SemCor or the framework's data sets
/// where wsd looked for them by default, how to get them; a relative path
/// that is missing here but present in the data home, where it is.
fn data_home_hint(err: &anyhow::Error) -> Option<String> {
    let path = err
        .chain()
        .find_map(|e| match e.downcast_ref::<wsd::Error>() {
            Some(wsd::Error::Io { path, source })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Some(path)
            }
            _ => None,
        })?;
    use wsd::resources::{DEFAULT_FRAMEWORK, DEFAULT_SEMCOR};
    for (rel, flag) in [
        (DEFAULT_SEMCOR, "--semcor"),
        (DEFAULT_FRAMEWORK, "--framework"),
    ] {
        if path.ends_with(rel) {
            return Some(format!(
                "get it with scripts/install.sh (fills the data home), or scripts/fetch-data.sh in a checkout; or pass {flag} DIR"
            ));
        }
    }
    let there = wsd::resources::data_home_has(path)?;
    Some(format!(
        "{} is not in this folder; the data home has it: {}",
        path.display(),
        there.display()
    ))
}

/// Was file descriptor 1 closed when the process started (`wsd … >&-`)?
/// Rust's runtime reopens a closed stdout on /dev/null before `main`, so
/// the results would vanish with exit 0; a constructor that runs before
/// the runtime's start-up looks first.
#[cfg(target_os = "linux")]
fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(not(target_os = "linux"))]
fn stdout_closed() -> bool {
    false
}

#[cfg(target_os = "linux")]
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static CHECK_STDOUT: extern "C" fn() = {
    extern "C" fn check() {
        // SAFETY: F_GETFD only queries the descriptor's flags.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    check
};

#[cfg(test)]
mod tests {
    /// The option number is taken from mimalloc.h; mimalloc v3's default
    /// of 1000 (ms; v2's 10) shows it is the purge delay and not a
    /// neighbouring option.
    #[test]
    fn purge_delay_option_number_is_the_purge_delay() {
        // SAFETY: reads one option.
        let default = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert!(
            [10, 1000, -1].contains(&default),
            "option 15 reads {default}"
        );
        super::keep_freed_pages();
        let set = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(set, -1);
    }
}
