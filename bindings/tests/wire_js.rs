//! npm/lib/wire.js is what the Rust constants generate (`transfer::wire_js`), so the JS tape
//! reader and writer cannot drift from Rust. `AGENTWIRE_WRITE_WIRE_JS=1` rewrites the file.

use std::path::Path;

#[test]
fn npm_lib_wire_js_is_generated_from_the_rust_constants() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../npm/lib/wire.js");
    let generated = agentwire_bindings::transfer::wire_js();
    if std::env::var_os("AGENTWIRE_WRITE_WIRE_JS").is_some() {
        std::fs::write(&path, &generated).expect("npm/lib/wire.js writable");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "npm/lib/wire.js differs from the Rust constants; regenerate it with \
         AGENTWIRE_WRITE_WIRE_JS=1 cargo test -p agentwire-bindings --test wire_js\n{generated}"
    );
}
