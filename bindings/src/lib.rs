//! agentwire-bindings: the shared binding layer between agentwire's formats and JavaScript.
//!
//! The core crate (`agentwire`) holds the formats, their typed Rust API and their JSON forms.
//! This crate holds what the Node addon (`bindings-node/`, napi) and the wasm modules
//! (`bindings-wasm/`, wasm-bindgen) share on top of it, so that the same input gives the same
//! bytes, results and errors in every runtime. It has no runtime of its own: the two crates
//! register its export table and convert raw JS values, nothing more.
//!
//! - [`exports`]: the one export table (areas by feature, named as their wasm modules: `core`,
//!   `gcf`, `gateway`, `events`, `schema`, `tokens`). Every export is a body in [`js`] over a
//!   [`call::Call`], named by its JS path (`gcf.graphPackRoot`).
//! - [`transfer`]: how values cross between Rust and JavaScript without JSON text (a word
//!   tape both ways, read and written by npm/lib/transfer.js).
//! - [`shapes`]: the JS functions' options and results that are not a core type's JSON form,
//!   the states of the JS classes, and the JavaScript number policy ([`shapes::number`]).
//! - [`js_error`]: the properties of the JS error a failed call throws.
//!
//! Default features: every area, `tokens` (exact tiktoken counts) and `schema` (agentwire's
//! `JsonSchemaValidator`); the wasm modules are built with one area each.

#![deny(missing_docs)]

pub mod call;
mod export;
pub mod exports;
pub mod js;
pub mod js_error;
pub mod shapes;
pub mod transfer;
