//! The `oddsmith` command. All logic lives in the library; see `oddsmith::main_impl`.

fn main() -> std::process::ExitCode {
    oddsmith::main_impl(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}
