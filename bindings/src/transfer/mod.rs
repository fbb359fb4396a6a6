//! The transfer format between the Rust core and JavaScript: values cross as one buffer of
//! 32-bit words (plus one string), never as JSON text.
//!
//! Results ([`to_js`]): Rust writes a word tape; the JS reader (npm/lib/transfer.js) builds
//! the objects, creating each object shape's property keys once and taking strings as slices
//! of the caller's input string or of one side string. Arguments ([`from_js`]): the JS writer
//! walks the caller's values into words, doubles and one concatenated string, which Rust reads
//! into [`agentwire::json::Value`]s.
//!
//! The numbers both sides must agree on (tags, flags, limits, the error's property names) are
//! defined here and given to JavaScript as the generated module npm/lib/wire.js
//! ([`wire_js`]; a test fails when the committed file differs).

use std::fmt::Write;

pub mod from_js;
pub mod shapes;
pub mod to_js;

/// The largest argument an op carries in its upper 28 bits (a longer string is sent with
/// `LONG` first).
pub const ARG_MAX: u32 = (1 << 28) - 1;

/// Declares op tags as constants and as `ALL`, `(name, value)` pairs for [`wire_js`].
macro_rules! tags {
    ($( $(#[$doc:meta])* $name:ident = $value:literal, )*) => {
        $( $(#[$doc])* pub const $name: u32 = $value; )*
        /// Every tag with its name.
        pub const ALL: &[(&str, u32)] = &[$((stringify!($name), $name)),*];
    };
}
pub(crate) use tags;

/// The text of npm/lib/wire.js: the tags of both tapes, the result flags, the limits and the
/// error's property names, as JavaScript constants.
pub fn wire_js() -> String {
    let mut out = String::from(
        "// Generated from bindings/src/transfer (wire_js) and bindings/src/js_error.rs: do not edit.\n\
         // `AGENTWIRE_WRITE_WIRE_JS=1 cargo test -p agentwire-bindings --test wire_js` rewrites it;\n\
         // that test fails when this file and the Rust constants differ.\n",
    );
    let mut constants = |prefix: &str, tags: &[(&str, u32)]| {
        for (name, value) in tags {
            let _ = writeln!(out, "export const {prefix}{name} = {value};");
        }
    };
    constants("IN_", from_js::tag::ALL);
    constants("OUT_", to_js::tag::ALL);
    constants(
        "",
        &[
            ("SIDE", to_js::SIDE),
            ("RESET", to_js::RESET),
            ("ARG_MAX", ARG_MAX),
            ("MAX_DEPTH", from_js::MAX_DEPTH as u32),
        ],
    );
    let names: Vec<String> = crate::js_error::PROPERTY_NAMES
        .iter()
        .map(|name| format!("'{name}'"))
        .collect();
    let _ = writeln!(
        out,
        "export const ERROR_PROPERTIES = Object.freeze([{}]);",
        names.join(", ")
    );
    out
}
