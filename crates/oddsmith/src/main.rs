//! The `oddsmith` command. All logic lives in the library; see `oddsmith::main_impl`.

fn main() -> std::process::ExitCode {
    oddsmith::interrupt::install();
    oddsmith::main_impl(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        // Not locked for the whole run: the interrupt handler writes to stderr too.
        &mut std::io::stderr(),
    )
}
