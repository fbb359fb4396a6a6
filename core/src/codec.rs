//! A registry of payload codecs selected by name: `gcf` (GCF v1.1 text), `gcb` (GCB1 binary,
//! alias `binary`) and `json` (the payload's JSON form, [`Payload::to_value`]), plus any the
//! user registers.
//!
//! ```
//! use agentwire::codec::Registry;
//! use agentwire::gcf::{Payload, Symbol};
//! let registry = Registry::builtin();
//! let payload = Payload {
//!     tool: "t".into(),
//!     symbols: vec![Symbol { qualified_name: "a.A".into(), kind: "function".into(), provenance: "lsp_resolved".into(), ..Symbol::default() }],
//!     ..Payload::default()
//! };
//! let gcb = registry.get("binary")?;
//! let bytes = (gcb.encode)(&payload)?;
//! assert_eq!((gcb.decode)(&bytes)?, payload);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::gcf::Payload;
use crate::text::quote;
use crate::{Error, ErrorKind, Result};

/// Encodes a payload to bytes (text codecs write UTF-8).
///
/// ```
/// use agentwire::codec::EncodeFn;
/// let count: EncodeFn = Box::new(|p| Ok(p.symbols.len().to_string().into_bytes()));
/// assert_eq!(count(&agentwire::gcf::Payload::default())?, b"0");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub type EncodeFn = Box<dyn Fn(&Payload) -> Result<Vec<u8>> + Send + Sync>;
/// Decodes bytes to a payload.
///
/// ```
/// use agentwire::codec::DecodeFn;
/// use agentwire::gcf::Payload;
/// let tool_only: DecodeFn = Box::new(|b| Ok(Payload { tool: String::from_utf8_lossy(b).into(), ..Payload::default() }));
/// assert_eq!(tool_only(b"search")?.tool, "search");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub type DecodeFn = Box<dyn Fn(&[u8]) -> Result<Payload> + Send + Sync>;

/// A named codec.
///
/// ```
/// use agentwire::codec::{Codec, Registry};
/// use agentwire::gcf::Payload;
/// let mut registry = Registry::builtin();
/// registry.register(Codec {
///     name: "tool".into(),
///     aliases: vec!["t".into()],
///     description: "just the tool name".into(),
///     text: true,
///     encode: Box::new(|p| Ok(p.tool.clone().into_bytes())),
///     decode: Box::new(|b| Ok(Payload { tool: String::from_utf8_lossy(b).into(), ..Payload::default() })),
/// });
/// let payload = Payload { tool: "search".into(), ..Payload::default() };
/// assert_eq!(registry.encode_with("t", &payload)?, b"search");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub struct Codec {
    /// Name used to select it.
    pub name: String,
    /// Other names that select it.
    pub aliases: Vec<String>,
    /// What it is for.
    pub description: String,
    /// Whether its output is text (UTF-8) rather than binary.
    pub text: bool,
    /// The encoder.
    pub encode: EncodeFn,
    /// The decoder.
    pub decode: DecodeFn,
}

impl core::fmt::Debug for Codec {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Codec")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("text", &self.text)
            .finish_non_exhaustive()
    }
}

fn utf8(bytes: &[u8]) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8,
            "input is not UTF-8",
            crate::Position::in_text(bytes, e.valid_up_to()),
        )
    })
}

/// Registered codecs; [`Registry::builtin`] holds `gcf`, `gcb` and `json`.
///
/// ```
/// use agentwire::codec::Registry;
/// let registry = Registry::default();
/// let names: Vec<&str> = registry.list().iter().map(|c| c.name.as_str()).collect();
/// assert_eq!(names, ["gcf", "gcb", "json"]);
/// ```
#[derive(Debug)]
pub struct Registry {
    codecs: Vec<Codec>,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::builtin()
    }
}

impl Registry {
    /// No codecs.
    ///
    /// ```
    /// let registry = agentwire::codec::Registry::empty();
    /// assert!(registry.list().is_empty());
    /// assert_eq!(registry.get("gcf").unwrap_err().code(), "INVALID_ARGUMENT");
    /// ```
    pub fn empty() -> Registry {
        Registry { codecs: Vec::new() }
    }

    /// `gcf`, `gcb` (alias `binary`) and `json`.
    ///
    /// ```
    /// let registry = agentwire::codec::Registry::builtin();
    /// assert!(registry.get("gcf")?.text);
    /// assert_eq!(registry.get("binary")?.name, "gcb");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn builtin() -> Registry {
        let mut registry = Registry::empty();
        registry.register(Codec {
            name: "gcf".into(),
            aliases: Vec::new(),
            description: "GCF v1.1 text: compact, graph-native, for LLM context".into(),
            text: true,
            encode: Box::new(|p| crate::gcf::v1::encode(p).map(String::into_bytes)),
            decode: Box::new(|b| {
                crate::gcf::v1::decode(utf8(b)?, &Default::default()).map(|p| p.into_payload())
            }),
        });
        registry.register(Codec {
            name: "gcb".into(),
            aliases: alloc::vec!["binary".into()],
            description: "GCB1 binary: smallest, for transport and caches".into(),
            text: false,
            encode: Box::new(|p| Ok(crate::gcb::encode(p))),
            decode: Box::new(|b| {
                crate::gcb::decode(b, &Default::default()).map(|p| p.into_payload())
            }),
        });
        registry.register(Codec {
            name: "json".into(),
            aliases: Vec::new(),
            description: "JSON (camelCase keys): compatibility and debugging".into(),
            text: true,
            encode: Box::new(|p| {
                crate::json::to_string(&p.to_value(), crate::json::WriteOptions::PLAIN)
                    .map(String::into_bytes)
            }),
            decode: Box::new(|b| Payload::from_value(&crate::json::parse(utf8(b)?)?)),
        });
        registry
    }

    /// Adds a codec, replacing one of the same name.
    ///
    /// ```
    /// use agentwire::codec::{Codec, Registry};
    /// let mut registry = Registry::builtin();
    /// // Replaces the built-in `gcf` codec.
    /// registry.register(Codec {
    ///     name: "gcf".into(),
    ///     aliases: Vec::new(),
    ///     description: "symbol count".into(),
    ///     text: true,
    ///     encode: Box::new(|p| Ok(p.symbols.len().to_string().into_bytes())),
    ///     decode: Box::new(|_| Ok(Default::default())),
    /// });
    /// assert_eq!(registry.list().len(), 3);
    /// assert_eq!(registry.encode_with("gcf", &Default::default())?, b"0");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn register(&mut self, codec: Codec) {
        self.codecs.retain(|c| c.name != codec.name);
        self.codecs.push(codec);
    }

    /// The codec named (or aliased) `name`.
    ///
    /// ```
    /// let registry = agentwire::codec::Registry::builtin();
    /// assert_eq!(registry.get("binary")?.name, "gcb");
    /// let err = registry.get("xml").unwrap_err();
    /// assert_eq!(err.message(), "unknown codec \"xml\" (registered: gcf, gcb, json)");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn get(&self, name: &str) -> Result<&Codec> {
        self.codecs
            .iter()
            .find(|c| c.name == name || c.aliases.iter().any(|a| a == name))
            .ok_or_else(|| {
                let names: Vec<&str> = self.codecs.iter().map(|c| c.name.as_str()).collect();
                Error::new(
                    ErrorKind::InvalidArgument,
                    alloc::format!(
                        "unknown codec {name} (registered: {})",
                        names.join(", "),
                        name = quote(name)
                    ),
                )
            })
    }

    /// Every codec, in registration order.
    ///
    /// ```
    /// let registry = agentwire::codec::Registry::builtin();
    /// let binary: Vec<&str> = registry.list().iter().filter(|c| !c.text).map(|c| c.name.as_str()).collect();
    /// assert_eq!(binary, ["gcb"]);
    /// ```
    pub fn list(&self) -> &[Codec] {
        &self.codecs
    }

    /// Encodes with the codec `name`.
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// let registry = agentwire::codec::Registry::builtin();
    /// let payload = Payload { tool: "find".into(), ..Payload::default() };
    /// let bytes = registry.encode_with("gcb", &payload)?;
    /// assert!(bytes.starts_with(b"GCB1"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn encode_with(&self, name: &str, payload: &Payload) -> Result<Vec<u8>> {
        (self.get(name)?.encode)(payload)
    }

    /// Decodes with the codec `name`.
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// let registry = agentwire::codec::Registry::builtin();
    /// let payload = Payload { tool: "find".into(), ..Payload::default() };
    /// let text = registry.encode_with("gcf", &payload)?;
    /// assert_eq!(registry.decode_with("gcf", &text)?, payload);
    /// assert_eq!(registry.decode_with("gcf", b"\xff").unwrap_err().code(), "INVALID_UTF8");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn decode_with(&self, name: &str, input: &[u8]) -> Result<Payload> {
        (self.get(name)?.decode)(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcf::{Edge, Symbol};

    #[test]
    fn every_builtin_codec_round_trips() {
        let payload = Payload {
            tool: "t".into(),
            token_budget: 100,
            tokens_used: 7,
            symbols: alloc::vec![
                Symbol {
                    qualified_name: "a".into(),
                    kind: "function".into(),
                    score: 0.5,
                    provenance: "lsp_resolved".into(),
                    ..Symbol::default()
                },
                Symbol {
                    qualified_name: "b".into(),
                    kind: "type".into(),
                    score: 0.25,
                    provenance: "ast_inferred".into(),
                    distance: 1,
                    ..Symbol::default()
                },
            ],
            edges: alloc::vec![Edge {
                source: "b".into(),
                target: "a".into(),
                edge_type: "calls".into(),
                status: "added".into()
            }],
            ..Payload::default()
        };
        let registry = Registry::builtin();
        for codec in registry.list() {
            let bytes = registry.encode_with(&codec.name, &payload).unwrap();
            assert_eq!(
                registry.decode_with(&codec.name, &bytes).unwrap(),
                payload,
                "{}",
                codec.name
            );
        }
        assert!(registry.get("binary").is_ok());
        assert_eq!(registry.get("xml").unwrap_err().code(), "INVALID_ARGUMENT");
        let e = registry.decode_with("json", b"\xff").unwrap_err();
        assert_eq!((e.code(), e.offset()), ("INVALID_UTF8", Some(0)));
    }

    #[test]
    fn user_codecs_register() {
        let mut registry = Registry::builtin();
        registry.register(Codec {
            name: "count".into(),
            aliases: Vec::new(),
            description: "symbol count".into(),
            text: true,
            encode: Box::new(|p| Ok(alloc::format!("{}", p.symbols.len()).into_bytes())),
            decode: Box::new(|_| Ok(Payload::default())),
        });
        assert_eq!(
            registry.encode_with("count", &Payload::default()).unwrap(),
            b"0"
        );
        assert_eq!(registry.list().len(), 4);
    }
}
