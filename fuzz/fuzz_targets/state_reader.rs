#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| git_handover::fuzz::state_reader(data));
