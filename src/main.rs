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
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("wsd: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
