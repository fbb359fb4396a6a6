//! agentwire-bindings: the layer between agentwire's formats and its hosts.
//!
//! The core crate (`agentwire`) holds the formats and their typed Rust API. This crate holds
//! what the Node addon and the wasm modules share on top of it, so that the same input gives
//! the same bytes in every runtime (the CLI uses the core's typed API and only the JSON shapes
//! of [`shapes`] from here):
//!
//! - [`exports`]: the one export table; with feature `node` it is the napi addon, with
//!   feature `wasm` a wasm-bindgen module (areas by feature: `formats`, `gcf3`, `gateway`,
//!   `events`, `schema`, `tokens`). Every export is a body in [`js`] over a [`call::Call`].
//! - [`transfer`]: how values cross between Rust and JavaScript without JSON text (a word
//!   tape both ways, read and written by npm/lib/transfer.js).
//!
//! - [`api`]: every function over text (JSON for structured values, `""` options for the
//!   defaults), the JSON-text layer the conformance runner and the hostile-input tests drive;
//!   errors as JSON with [`api::error_json`]. Not a Rust API: Rust users call the core.
//! - [`shapes`]: agentwire's own JSON shapes of the core types (the camelCase DTOs the JS API
//!   takes and returns, options objects read from JSON, GCX1 sections as JSON documents) as
//!   the [`FromValue`] and [`ToValue`] traits and free functions, and the JavaScript number
//!   policy ([`shapes::number`]).
//!
//! JSON that is a format itself stays in the core: the Responses-API events (JSON lines by
//! spec), the gateway's items, cards and replies as contextweaver renders them, tool-id parts,
//! and JSON Schema validation.
//!
//! Default features: every area, `tokens` (exact tiktoken counts) and `schema` (agentwire's
//! `JsonSchemaValidator`); the wasm modules are built without defaults, one area each.

#![deny(missing_docs)]

pub mod api;
pub mod call;
mod export;
pub mod exports;
pub mod js;
#[cfg(feature = "node")]
pub mod node;
pub mod shapes;
pub mod transfer;
#[cfg(feature = "wasm")]
pub mod wasm;

#[cfg(feature = "node")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub use shapes::{FromValue, ToValue};
