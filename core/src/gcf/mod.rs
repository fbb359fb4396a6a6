//! GCF, the Graph Compact Format: a graph payload (symbols grouped by distance, edges by local
//! id) as text for LLMs.
//!
//! [`v1`] is GCF v1.1, byte-identical to gcf-go v0.1.2, with sessions and deltas; the payload
//! model is shared with [`gcb`](crate::gcb) and the JSON codec ([`crate::codec`]).
//!
//! ```
//! use agentwire::gcf::{self, Payload, Symbol};
//! let payload = Payload {
//!     tool: "context_for_task".into(),
//!     symbols: vec![Symbol { qualified_name: "pkg.Auth".into(), kind: "function".into(), score: 0.78, provenance: "lsp".into(), ..Symbol::default() }],
//!     ..Payload::default()
//! };
//! let text = gcf::encode(&payload)?;
//! assert_eq!(text, "GCF tool=context_for_task budget=0 tokens=0 symbols=1\n## targets\n@0 fn pkg.Auth 0.78 lsp\n");
//! assert_eq!(gcf::decode(&text)?.symbols[0].kind, "function");
//! # Ok::<(), agentwire::Error>(())
//! ```

pub(crate) mod model;
pub mod v1;

pub use model::{
    Components, DecodeOptions, DeltaPayload, Edge, Payload, Symbol, DEFAULT_MAX_PAYLOAD_BYTES,
};
pub use v1::{decode, decode_with, encode, encode_delta, Session};
