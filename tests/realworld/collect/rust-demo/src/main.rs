use std::collections::HashMap;

fn count_lines(text: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', text).count()
}

fn main() {
    let unused_total = 0u64;
    let mut buffer = itoa::Buffer::new();
    let text = b"one\ntwo\nthree\n";
    let lines = count_lines(text);
    let mut by_name = HashMap::new();
    by_name.insert("lines", lines);
    println!("{} lines", buffer.format(lines));
}
