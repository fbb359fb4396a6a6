//! The functions JavaScript calls, one per export of [`crate::exports`]: each reads its
//! arguments from a [`Call`](crate::call::Call), calls the core (through [`crate::shapes`] for
//! JS shapes and options) and returns its output. The same bodies serve the native addon and
//! every wasm module.
//!
//! Argument order: a body reads its arguments in the order the JS layer writes them; where a
//! body needs the options to read the rest (a nesting limit), the options come first.

pub mod common;
#[cfg(any(feature = "gcf", feature = "tokens"))]
pub mod compact;
#[cfg(feature = "events")]
pub mod events;
#[cfg(feature = "gateway")]
pub mod gateway;
#[cfg(feature = "gcf")]
pub mod gcf;
#[cfg(feature = "core")]
pub mod gcx;
#[cfg(feature = "core")]
pub mod graph;
#[cfg(feature = "schema")]
pub mod schema;
#[cfg(feature = "tokens")]
pub mod tokens;
#[cfg(feature = "toon")]
pub mod toon;
