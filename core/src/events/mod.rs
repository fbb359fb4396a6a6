//! The Responses-API JSONL event protocol of `godex exec --json` ("wire protocol v0"): the
//! event model, an incremental parser and validator that never stops at a bad line, the
//! accumulator, the godex-exact and spec-style serializers, `--tool` specs, the mock stream
//! generator, SSE framing with the Responses-to-subset converter, and follow-up input items.
//!
//! The rules are those of the fixtures README (`tests/fixtures/events/README.md`).
//!
//! ```
//! use agentwire::events::StreamDecoder;
//! let mut decoder = StreamDecoder::new(agentwire::events::DEFAULT_MAX_LINE_BYTES);
//! let mut items = Vec::new();
//! decoder.push(br#"{"type":"response.output_text.delta","delta":"Hi"}"#, &mut items);
//! decoder.push(b"\n{\"type\":\"response.completed\"}\n", &mut items);
//! let summary = decoder.finish(&mut items);
//! assert_eq!(summary.result.text, "Hi");
//! ```

pub mod accumulate;
pub mod decode;
pub mod diagnostic;
pub mod followup;
pub mod mock;
pub mod model;
pub mod serialize;
pub mod sse;
pub mod toolspec;

pub use accumulate::{Accumulator, FunctionCall, StreamError, StreamResult, Summary, accumulate};
pub use decode::{DEFAULT_MAX_LINE_BYTES, DecodedItem, StreamDecoder};
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use model::{Event, EventType, TerminalStatus, Usage};
