//! GCF, the Graph Compact Format: a graph payload (symbols grouped by distance, edges by local
//! id) as text for LLMs.
//!
//! [`v1`] is GCF v1.1, byte-identical to gcf-go v0.1.2, with sessions and deltas; the payload
//! model is shared with [`gcb`](crate::gcb) and the codec registry ([`crate::codec`]). [`v3`] is
//! GCF v3, the current spec (v3.6.0 by default, v3.5.3 on request): the generic profile (any
//! JSON value) and the v3 graph profile. [`decode_any`] reads any version and says which it
//! read.
//!
//! ```
//! use agentwire::gcf::{self, Payload, Symbol};
//! let payload = Payload {
//!     tool: "context_for_task".into(),
//!     symbols: vec![Symbol { qualified_name: "pkg.Auth".into(), kind: "function".into(), score: 0.78, provenance: "lsp".into(), ..Symbol::default() }],
//!     ..Payload::default()
//! };
//! let text = gcf::v1::encode(&payload)?;
//! assert_eq!(text, "GCF tool=context_for_task budget=0 tokens=0 symbols=1\n## targets\n@0 fn pkg.Auth 0.78 lsp\n");
//! assert_eq!(gcf::v1::decode(&text, &Default::default())?.into_payload().symbols[0].kind, "function");
//! # Ok::<(), agentwire::Error>(())
//! ```

mod borrowed;
mod json_form;
pub(crate) mod model;
pub mod v1;
pub mod v3;

pub use borrowed::{BorrowedEdge, BorrowedPayload, BorrowedSymbol, EdgeRef, PayloadRef};
pub use json_form::{COMPONENTS_KEYS, EDGE_KEYS, PAYLOAD_KEYS, SYMBOL_KEYS};
pub use model::{
    Components, DEFAULT_MAX_PAYLOAD_BYTES, DecodeOptions, DeltaPayload, Edge, Payload, Symbol,
};

/// Which GCF version a payload is written in.
///
/// ```
/// use agentwire::gcf::{self, v3::SpecVersion, Version};
/// let v1 = gcf::detect_version(b"GCF tool=t budget=0 tokens=0 symbols=0\n");
/// assert_eq!(v1, Some(Version::V1_1));
/// assert_ne!(Version::V1_1, Version::V3(SpecVersion::V3_5_3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Version {
    /// GCF v1.1 (`GCF tool=…`, gcf-go v0.1.2).
    V1_1,
    /// GCF v3 (`GCF profile=…`): the lowest spec version whose forms the payload uses.
    V3(v3::SpecVersion),
}

impl Version {
    /// `1.1`, `3.5.3` or `3.6.0`.
    ///
    /// ```
    /// use agentwire::gcf::{v3::SpecVersion, Version};
    /// assert_eq!(Version::V1_1.as_str(), "1.1");
    /// assert_eq!(Version::V3(SpecVersion::V3_6_0).as_str(), "3.6.0");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V1_1 => "1.1",
            Version::V3(version) => version.as_str(),
        }
    }
}

/// The version a payload's header announces: `GCF profile=` is v3, any other `GCF ` header
/// v1.1. `None` when the input does not start with a GCF header. A v3 header does not say
/// which v3: this reports 3.5.3, and [`decode_any`] 3.6.0 when the body uses a 3.6.0 form.
///
/// ```
/// use agentwire::gcf::{self, v3::SpecVersion, Version};
/// assert_eq!(gcf::detect_version(b"GCF tool=t symbols=0\n"), Some(Version::V1_1));
/// let v3 = gcf::detect_version(b"GCF profile=generic\n## [2]{id,kind=x}\n1\n2\n");
/// assert_eq!(v3, Some(Version::V3(SpecVersion::V3_5_3)));
/// assert_eq!(gcf::detect_version(b"{\"json\": true}"), None);
/// ```
pub fn detect_version(input: &[u8]) -> Option<Version> {
    if input.starts_with(b"GCF profile=") {
        Some(Version::V3(v3::SpecVersion::V3_5_3))
    } else if input.starts_with(b"GCF ") {
        Some(Version::V1_1)
    } else {
        None
    }
}

/// Decodes a GCF payload of any version and says which it read: v1.1 payloads decode to
/// [`v3::Document::Graph`]; a v3 payload is 3.6.0 when it uses a 3.6.0 form (a constant column
/// or a grouped section), 3.5.3 otherwise ([`v3::decode_versioned`]). Input without a GCF
/// header is a v3 `missing_header` error, and invalid UTF-8 is `GCF_INVALID_UTF8` in every
/// version.
///
/// ```
/// use agentwire::gcf::{self, v3::SpecVersion, Version};
/// let (version, _) = gcf::decode_any(b"GCF profile=generic\n## [2]{id,kind=x}\n1\n2\n", &Default::default())?;
/// assert_eq!(version, Version::V3(SpecVersion::V3_6_0));
/// assert_eq!(version.as_str(), "3.6.0");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_any(input: &[u8], options: &DecodeOptions) -> crate::Result<(Version, v3::Document)> {
    match detect_version(input) {
        Some(Version::V1_1) => {
            let text = v3::utf8(input)?;
            Ok((
                Version::V1_1,
                v3::Document::Graph(v1::decode(text, options)?.into_payload()),
            ))
        }
        _ => {
            let (version, document) = v3::decode_versioned(input, &v3::DecodeOptions::default())?;
            Ok((Version::V3(version), document))
        }
    }
}
