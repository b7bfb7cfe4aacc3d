//! The `skillcal` binary: everything is in [`skillcal::cli`].

fn main() -> std::process::ExitCode {
    skillcal::cli::main()
}
