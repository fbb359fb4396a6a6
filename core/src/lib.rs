//! agentwire: the compact wire formats that LLM agents and MCP servers exchange.
//!
//! Every format's logic lives here, with a typed Rust API. The JSON-text API and the JSON
//! shapes the CLI and the Node and browser bindings share are the `agentwire-bindings` crate,
//! a thin layer over this one, so the same input gives the same bytes everywhere.
//!
//! - [`gcx`]: GCX1, the tab-delimited format for MCP tool responses (byte-identical to gcx-go
//!   v0.1.0), with a streaming encoder and a push decoder.
//! - [`gcf`]: GCF v1.1 graph text (byte-identical to gcf-go v0.1.2) with sessions and deltas;
//!   [`gcb`]: the GCB1 binary form of the same payload; [`codec`]: both plus JSON, by name.
//! - [`json`]: the JSON value model shared by every format ("typed" numbers), a strict parser
//!   with positions and limits, and Go `encoding/json` compatible output.
//! - [`num`]: Go `%g` and Go `encoding/json` / ECMAScript number text.
//! - [`Error`]: one small error type with a stable [`code`](Error::code) and a position.
//! - [`tokens`]: the [`TokenCounter`](tokens::TokenCounter) trait; exact `cl100k_base` and
//!   `o200k_base` counts with the `tokens` feature.
//!
//! The crate is `#![no_std]` with `alloc`; the default `std` feature adds
//! [`sink::IoSink`] and `From<std::io::Error>`.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod codec;
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

pub use error::{Error, ErrorKind, Format, LineColumn, Position, Result};
