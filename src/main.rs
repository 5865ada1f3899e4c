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

/// Is file descriptor 1 closed (`wsd … >&-`)? Rust's stdout discards
/// writes to a closed descriptor without an error.
#[cfg(unix)]
fn stdout_closed() -> bool {
    // SAFETY: F_GETFD only queries the descriptor's flags.
    unsafe { libc::fcntl(1, libc::F_GETFD) == -1 }
}

#[cfg(not(unix))]
fn stdout_closed() -> bool {
    false
}
