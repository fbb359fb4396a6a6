//! `toon.encode` and `toon.decode`: their options, named as `@toon-format/toon` names them
//! (`indent`, `delimiter`, `keyFolding`, `flattenDepth`; `indent`, `strict`, `expandPaths`).

use agentwire::json::Value;
use agentwire::toon::{DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding};
use agentwire::{Error, ErrorKind, Result};

use super::{option_bool, option_choice, option_uint};

/// `{indent, delimiter, keyFolding, flattenDepth}`: the delimiter as the character (`,`, `\t`,
/// `|`) or its name; `flattenDepth` a count or `Infinity` (no limit).
pub fn encode_options(options: &Value) -> Result<EncodeOptions> {
    let defaults = EncodeOptions::default();
    let delimiter = match option_choice(
        options,
        "delimiter",
        &[",", "\t", "|", "comma", "tab", "pipe"],
    )? {
        Some(name) => Delimiter::from_name(name).unwrap_or_default(),
        None => defaults.delimiter,
    };
    let key_folding = match option_choice(options, "keyFolding", &["off", "safe"])? {
        Some(name) => KeyFolding::from_name(name).unwrap_or_default(),
        None => defaults.key_folding,
    };
    let flatten_depth = match options.get("flattenDepth") {
        Some(Value::Number(n)) if n.as_f64() == f64::INFINITY => usize::MAX,
        _ => option_uint(options, "flattenDepth", defaults.flatten_depth)?,
    };
    Ok(EncodeOptions {
        indent: option_uint(options, "indent", defaults.indent)?,
        delimiter,
        key_folding,
        flatten_depth,
    })
}

/// `{indent, strict, expandPaths, maxDepth}`.
pub fn decode_options(options: &Value) -> Result<DecodeOptions> {
    let defaults = DecodeOptions::default();
    let expand_paths = match option_choice(options, "expandPaths", &["off", "safe"])? {
        Some(name) => ExpandPaths::from_name(name).unwrap_or_default(),
        None => defaults.expand_paths,
    };
    let max_depth = option_uint(options, "maxDepth", defaults.max_depth)?;
    if max_depth > agentwire::json::MAX_DEPTH_CEILING {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "options.maxDepth must be at most {}",
                agentwire::json::MAX_DEPTH_CEILING
            ),
        ));
    }
    Ok(DecodeOptions {
        indent: option_uint(options, "indent", defaults.indent)?,
        strict: option_bool(options, "strict", defaults.strict)?,
        expand_paths,
        max_depth,
    })
}
