//! agentwire: the compact wire formats that LLM agents and MCP servers exchange.
//!
//! Every format's logic lives here, with a typed Rust API and the JSON forms of its types
//! (`from_value` / `to_value`, which the CLI prints and the JS API takes and returns). The
//! Node and browser bindings (`agentwire-bindings`) are a thin layer over this crate, so the
//! same input gives the same bytes everywhere.
//!
//! - [`gcx`]: GCX1, the tab-delimited format for MCP tool responses (byte-identical to gcx-go
//!   v0.1.0), with a streaming encoder and a push decoder.
//! - [`gcf`]: GCF v1.1 graph text (byte-identical to gcf-go v0.1.2) with sessions and deltas;
//!   [`gcb`]: the GCB1 binary form of the same payload; [`codec`]: both plus JSON, by name.
//! - [`toon`]: TOON (Token-Oriented Object Notation, spec 4.0), byte-identical to
//!   `@toon-format/toon` 4.4.0 on the spec's fixtures, with key folding and path expansion.
//! - [`json`]: the JSON value model shared by every format ("typed" numbers), a strict parser
//!   with positions and limits, and Go `encoding/json` compatible output.
//! - [`num`]: Go `%g` and Go `encoding/json` / ECMAScript number text.
//! - [`Error`]: one small error type with a stable [`code`](Error::code) and a position.
//! - [`tokens`]: the [`TokenCounter`](tokens::TokenCounter) trait; exact `cl100k_base` and
//!   `o200k_base` counts with the `tokens` feature.
//!
//! The crate is `#![no_std]` with `alloc`; the default `std` feature adds
//! [`sink::IoSink`] and `From<std::io::Error>`.
//!
//! ```
//! use agentwire::gcf::{v1, v3};
//! use agentwire::{gcx, json};
//!
//! // A tool response to GCX1 (the tool's layout, or the generic fallback) and back.
//! let response = json::parse(r#"[{"id":"a.go::Foo","line":10}]"#)?;
//! let payload = gcx::encode_tool("search_symbols", &response, &gcx::ToolOptions::default())?;
//! let sections = gcx::decode(&payload, &gcx::DecodeOptions::default()).into_sections()?;
//! let line = sections[0].header.fields.iter().position(|f| f == "line").unwrap();
//! assert_eq!(sections[0].rows[0][line], "10");
//!
//! // Any JSON value as GCF v3 (generic profile, v3.6.0), and the version-agnostic reader.
//! let text = v3::encode_generic(&json::parse(r#"{"ok":true}"#)?)?;
//! assert!(text.starts_with("GCF profile=generic"));
//! let (version, _document) = agentwire::gcf::decode_any(text.as_bytes(), &Default::default())?;
//! assert_eq!(version.as_str(), "3.5.3"); // no 3.6.0 form in it
//! # let _ = v1::decode;
//! # Ok::<(), agentwire::Error>(())
//! ```
//!
//! Features: `std` (default), `tokens` (exact tiktoken counts), `schema` (JSON Schema
//! validation of tool arguments), `serde` (serde on the model types and `serde_json::Value`
//! interop; no_std like the rest). Every error code: `docs/errors.md`.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod codec;
pub mod compact;
mod error;
pub mod events;
pub mod gateway;
pub mod gcb;
pub mod gcf;
pub mod gcx;
pub mod json;
mod name_index;
pub mod num;
pub mod sink;
mod text;
pub mod tokens;
pub mod toon;

pub use error::{Error, ErrorKind, Format, LineColumn, Position, Result};
