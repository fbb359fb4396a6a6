//! Benchmarks only: see benches/codecs.rs.
