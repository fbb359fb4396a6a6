//! The cases of agentwire-bench (src/lib.rs) under criterion, one benchmark after another: for
//! looking at one benchmark closely, with criterion's statistics and its comparison against
//! the previous run (`cargo bench -p agentwire-bench --bench codecs -- gcf3-graph`). `make bench`
//! runs benches/rounds.rs instead, whose interleaved rounds give ratios that hold from one run
//! to the next.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn codecs(c: &mut Criterion) {
    let mut cases = agentwire_bench::cases();
    for cases in cases.chunk_by_mut(|a, b| a.group == b.group) {
        let mut group = c.benchmark_group(cases[0].group);
        // One call on the 10 MB corpus takes 5-60 ms: 20 samples instead of 100.
        if cases.iter().any(|case| case.bytes > 1_000_000) {
            group.sample_size(20);
        }
        for case in cases {
            group.throughput(Throughput::Bytes(case.bytes));
            group.bench_function(case.id, |b| b.iter(&mut case.run));
        }
        group.finish();
    }
}

criterion_group!(benches, codecs);
criterion_main!(benches);
