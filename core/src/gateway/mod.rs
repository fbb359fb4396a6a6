//! The gateway contracts of contextweaver 0.18.1: stable tool ids, ChoiceCards with token
//! budgets, browse paths, cache-stable browsing and meta-tool dispatch.
//!
//! Where the Python reference is accidental (`python_quirks.json`), the port takes the fix the
//! vectors suggest: full-string grammar anchoring, typed errors instead of escaped exceptions.
//!
//! ```
//! use agentwire::gateway::{format_tool_id, parse_tool_id, path::parse_path};
//! let parts = parse_tool_id("fs:read_file@1.2")?;
//! assert_eq!((parts.namespace.as_str(), parts.version.as_deref()), ("fs", Some("1.2")));
//! assert_eq!(format_tool_id(&parts)?, "fs:read_file@1.2");
//! assert_eq!(parse_path("/fs/*")?, ["fs", "*"]);
//! assert_eq!(parse_tool_id("Fs:x@1").unwrap_err().code(), "TOOL_ID_NAMESPACE_GRAMMAR");
//! # Ok::<(), agentwire::Error>(())
//! ```

pub mod card;
pub mod item;
pub mod path;
pub mod pytext;
pub mod reply;
pub mod report;
pub mod runtime;
pub mod schema;
pub mod tool_id;

pub use card::{CardBudget, ChoiceCard, Safety};
pub use item::{Item, Kind};
pub use tool_id::{ToolIdParts, format_tool_id, parse_tool_id};

use crate::json::{Number, Value};

/// A float as a JSON value (scores and cost hints are floats on the wire).
fn float_value(v: f64) -> Value {
    Value::Number(Number::from_f64(v))
}
