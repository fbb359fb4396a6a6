//! The transfer format between the Rust core and JavaScript: values cross as one buffer of
//! 32-bit words (plus one string), never as JSON text.
//!
//! Results ([`to_js`]): Rust writes a word tape; the JS reader (npm/lib/transfer.js) builds
//! the objects, creating each object shape's property keys once and taking strings as slices
//! of the caller's input string or of one side string. Arguments ([`from_js`]): the JS writer
//! walks the caller's values into words, doubles and one concatenated string, which Rust reads
//! into [`agentwire::json::Value`]s.

pub mod from_js;
pub mod shapes;
pub mod to_js;
