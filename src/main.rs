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

fn main() -> ExitCode {
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
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("wsd: error: {err:#}");
            ExitCode::from(2)
        }
    }
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
