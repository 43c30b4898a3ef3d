fn main() -> std::process::ExitCode {
    git_handover::main()
}
