//! Interleaved rounds over every case of agentwire-bench (src/lib.rs): what `make bench-rust`
//! runs. Writes bench/results/rust.json, whose records bench/report.mjs turns into ratios.
//!
//! Why not criterion: it times one benchmark after another, so a ratio of two of them
//! compares two stretches of time a minute apart, and whatever else the machine does in one
//! stretch and not the other lands in the ratio (two `make bench` runs on the same machine
//! moved ratios 2×). Here every case runs a short slice of calls in turn, forwards then
//! backwards (A B C … C B A …), so the two sides of a ratio run alternately, at most a sweep
//! apart. A round is several sweeps, and a case's time in a round is its fastest slice per
//! call: a slice already averages many calls, and on a shared machine the fastest one is the
//! one that other processes disturbed least (the mean of the slices follows the machine's
//! load). Each record keeps every round (`rounds_ns`) and their median; the report takes the
//! ratio round by round and gives its median with the min–max.
//!
//!   cargo bench -p agentwire-bench --bench rounds -- [--rounds N] [--sweeps N] [--slice-ms N]
//!     [--filter TEXT] [--out FILE] [--quick]

use std::time::{Duration, Instant};

use agentwire_bench::Case;

struct Settings {
    rounds: usize,
    sweeps: usize,
    slice: Duration,
    filter: String,
    out: String,
}

fn settings() -> Settings {
    let mut settings = Settings {
        rounds: 9,
        sweeps: 16,
        slice: Duration::from_millis(5),
        filter: String::new(),
        out: concat!(env!("CARGO_MANIFEST_DIR"), "/../results/rust.json").to_string(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} needs a value"))
        };
        let number = |text: String, name: &str| -> u64 {
            text.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number, not {text:?}"))
        };
        match arg.as_str() {
            "--rounds" => settings.rounds = number(value("--rounds"), "--rounds") as usize,
            "--sweeps" => settings.sweeps = number(value("--sweeps"), "--sweeps") as usize,
            "--slice-ms" => {
                settings.slice = Duration::from_millis(number(value("--slice-ms"), "--slice-ms"))
            }
            "--filter" => settings.filter = value("--filter"),
            "--out" => settings.out = value("--out"),
            // A smoke run: the numbers mean little.
            "--quick" => {
                settings.rounds = 3;
                settings.sweeps = 2;
                settings.slice = Duration::from_millis(2);
            }
            // cargo bench passes --bench to every bench target.
            "--bench" => {}
            other => panic!("unknown argument {other:?}"),
        }
    }
    assert!(
        settings.rounds > 0 && settings.sweeps > 0,
        "--rounds and --sweeps must be at least 1"
    );
    settings
}

fn time_calls(run: &mut dyn FnMut(), calls: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        run();
    }
    start.elapsed()
}

/// How many calls make one slice. The doubling calls before it also warm caches and the
/// allocator up.
fn calls_per_slice(run: &mut dyn FnMut(), slice: Duration) -> u64 {
    let mut calls = 1u64;
    loop {
        let elapsed = time_calls(run, calls);
        if elapsed * 4 >= slice {
            let scaled = calls as f64 * slice.as_secs_f64() / elapsed.as_secs_f64();
            return (scaled.round() as u64).max(1);
        }
        calls *= 2;
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    }
}

/// One decimal below a microsecond, whole nanoseconds above: enough for a ratio.
fn round_ns(ns: f64) -> f64 {
    if ns < 1000.0 {
        (ns * 10.0).round() / 10.0
    } else {
        ns.round()
    }
}

fn main() {
    let settings = settings();
    let started = Instant::now();
    let mut cases: Vec<Case> = agentwire_bench::cases()
        .into_iter()
        .filter(|case| case.name().contains(&settings.filter))
        .collect();
    assert!(
        !cases.is_empty(),
        "no case matches --filter {:?}",
        settings.filter
    );
    let calls: Vec<u64> = cases
        .iter_mut()
        .map(|case| calls_per_slice(&mut case.run, settings.slice))
        .collect();
    eprintln!(
        "{} cases, {} rounds of {} sweeps, slices of {} ms (calibrated in {:.0} s)",
        cases.len(),
        settings.rounds,
        settings.sweeps,
        settings.slice.as_millis(),
        started.elapsed().as_secs_f64()
    );

    let mut rounds_ns: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.rounds); cases.len()];
    let mut sweep_index = 0;
    for round in 0..settings.rounds {
        let mut fastest = vec![Duration::MAX; cases.len()];
        for _ in 0..settings.sweeps {
            // Forwards, then backwards: no case always runs right after the same neighbour.
            let order: Vec<usize> = if sweep_index % 2 == 0 {
                (0..cases.len()).collect()
            } else {
                (0..cases.len()).rev().collect()
            };
            for i in order {
                fastest[i] = fastest[i].min(time_calls(&mut cases[i].run, calls[i]));
            }
            sweep_index += 1;
        }
        for (i, slice) in fastest.iter().enumerate() {
            rounds_ns[i].push(round_ns(slice.as_nanos() as f64 / calls[i] as f64));
        }
        eprintln!(
            "round {}/{} done at {:.0} s",
            round + 1,
            settings.rounds,
            started.elapsed().as_secs_f64()
        );
    }

    let mut records = Vec::new();
    for (case, rounds) in cases.iter().zip(&rounds_ns) {
        let ns = median(rounds);
        let (low, high) = rounds
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        eprintln!(
            "  {:<52} {:>11.1} µs  {:+5.1}% {:+5.1}%",
            case.name(),
            ns / 1000.0,
            (low / ns - 1.0) * 100.0,
            (high / ns - 1.0) * 100.0
        );
        records.push(serde_json::json!({
            "name": case.name(),
            "runtime": "rust",
            "impl": case.implementation(),
            "op": case.op(),
            "bytes": case.bytes,
            "ns_per_op": ns,
            "schedule": "rust",
            "mb_per_s": ((case.bytes as f64 / 1e6 / (ns / 1e9)) * 100.0).round() / 100.0,
            "rounds_ns": rounds,
        }));
    }
    let json = serde_json::to_string_pretty(&records).unwrap();
    std::fs::write(&settings.out, format!("{json}\n"))
        .unwrap_or_else(|e| panic!("{}: {e}", settings.out));
    eprintln!(
        "wrote {} records to {} in {:.0} s",
        records.len(),
        settings.out,
        started.elapsed().as_secs_f64()
    );
}
