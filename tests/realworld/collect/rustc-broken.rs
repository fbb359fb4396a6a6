// Input for tests/realworld/rustc-diagnostics.jsonl: rustc's JSON diagnostics for a file
// with one type error, one borrow error and a few warnings.
fn average(values: &[f64]) -> f64 {
    let total: f64 = values.iter().sum();
    total / values.len()
}

fn main() {
    let mut names = vec![String::from("Zoë"), String::from("Łukasz")];
    let first = &names[0];
    names.push(String::from("Søren"));
    println!("{first}");
    let unused = 42;
    println!("{}", average(&[1.5, 2.5]));
}
