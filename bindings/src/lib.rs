//! agentwire-bindings: the layer between agentwire's formats and its hosts.
//!
//! The core crate (`agentwire`) holds the formats and their typed Rust API. This crate holds
//! what the CLI, the Node addon and the wasm modules share on top of it, so that the same input
//! gives the same bytes in every runtime:
//!
//! - [`api`]: every function over text (JSON for structured values, `""` options for the
//!   defaults), which the bindings wrap one call at a time; errors as JSON with
//!   [`api::error_json`].
//! - [`shapes`]: agentwire's own JSON shapes of the core types (the camelCase DTOs the JS API
//!   takes and returns, options objects read from JSON, GCX1 sections as JSON documents) as
//!   the [`FromValue`] and [`ToValue`] traits and free functions, and the JavaScript number
//!   policy ([`shapes::number`]).
//!
//! JSON that is a format itself stays in the core: the Responses-API events (JSON lines by
//! spec), the gateway's items, cards and replies as contextweaver renders them, tool-id parts,
//! and JSON Schema validation.
//!
//! Features (both default): `tokens` (exact tiktoken counts, `api::tokens_count`) and
//! `schema` (agentwire's `JsonSchemaValidator`); the default wasm modules leave them out.

#![deny(missing_docs)]

pub mod api;
pub mod shapes;

pub use shapes::{FromValue, ToValue};
