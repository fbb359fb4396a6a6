//! Fuzz target `tokens`: agentwire's token counter must equal tiktoken-rs on any text, in both
//! encodings (`agentwire_fuzz::tokens::tokens`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentwire_fuzz::tokens::tokens(data);
});
