//! Streaming generic encoder (SPEC §8.2–8.4, §8.8): tabular sections with deferred counts
//! `## name [?]{fields}`, rows written as they arrive, and the `##! summary counts=…` trailer.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::{SpecVersion, scalar};
use crate::json::{Map, Value};
use crate::num::write_u64;
use crate::{Error, ErrorKind, Result};

/// Writes a generic payload whose root object holds one or more tabular sections, each an
/// array of flat objects whose field list is known before its first row (SPEC §8.3).
///
/// ```
/// use agentwire::gcf::v3::GenericStreamEncoder;
/// use agentwire::json;
/// let mut stream = GenericStreamEncoder::new();
/// stream.begin_section("employees", &["id", "name"])?;
/// stream.row(json::parse(r#"{"id":1,"name":"Ada"}"#)?.as_object().unwrap())?;
/// stream.row(json::parse(r#"{"id":2}"#)?.as_object().unwrap())?;
/// assert_eq!(
///     stream.finish(),
///     "GCF profile=generic\n## employees [?]{id,name}\n1|Ada\n2|~\n##! summary counts=2\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct GenericStreamEncoder {
    out: String,
    /// Rows written per section, in section order.
    counts: Vec<usize>,
    /// Section names so far (they are members of the root object: unique).
    names: BTreeMap<String, ()>,
    /// The open section's field positions.
    fields: BTreeMap<String, usize>,
}

impl Default for GenericStreamEncoder {
    fn default() -> Self {
        Self::new()
    }
}

impl GenericStreamEncoder {
    /// A stream with the header written (no count fields: they are unknown, SPEC §8.1).
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericStreamEncoder;
    /// // Nothing but the header and an empty trailer.
    /// assert_eq!(GenericStreamEncoder::new().finish(), "GCF profile=generic\n##! summary\n");
    /// ```
    pub fn new() -> Self {
        GenericStreamEncoder {
            out: String::from("GCF profile=generic\n"),
            counts: Vec::new(),
            names: BTreeMap::new(),
            fields: BTreeMap::new(),
        }
    }

    /// Opens the section `name` (a root object member) with its complete field list; rows
    /// that follow belong to it. An empty field list and a field name containing `>` (a path
    /// column, which a stream cannot write, SPEC §8.3) are [`ErrorKind::InvalidArgument`]; a
    /// repeated section name is [`ErrorKind::GcfDuplicateKey`] and a repeated field
    /// [`ErrorKind::GcfDuplicateFieldName`], as the decoder would report them.
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericStreamEncoder;
    /// let mut stream = GenericStreamEncoder::new();
    /// stream.begin_section("users", &["id"])?;
    /// assert_eq!(stream.begin_section("users", &["id"]).unwrap_err().code(), "GCF_DUPLICATE_KEY");
    /// assert_eq!(stream.begin_section("paths", &["a>b"]).unwrap_err().code(), "INVALID_ARGUMENT");
    /// let twice = stream.begin_section("tags", &["t", "t"]).unwrap_err();
    /// assert_eq!(twice.code(), "GCF_DUPLICATE_FIELD_NAME");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn begin_section(&mut self, name: &str, fields: &[&str]) -> Result<()> {
        if fields.is_empty() {
            return Err(invalid("a streaming section needs at least one field"));
        }
        if self.names.contains_key(name) {
            return Err(Error::new(
                ErrorKind::GcfDuplicateKey,
                alloc::format!("duplicate_key: section {name:?} was already written"),
            ));
        }
        let mut positions = BTreeMap::new();
        for (position, field) in fields.iter().enumerate() {
            if field.contains('>') {
                return Err(invalid(alloc::format!(
                    "field {field:?} contains '>': a streaming section cannot write path columns"
                )));
            }
            if positions.insert(String::from(*field), position).is_some() {
                return Err(Error::new(
                    ErrorKind::GcfDuplicateFieldName,
                    alloc::format!("duplicate_field_name: field {field:?} is declared twice"),
                ));
            }
        }
        self.out.push_str("## ");
        scalar::write_key(&mut self.out, name);
        self.out.push_str(" [?]{");
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            scalar::write_key(&mut self.out, field);
        }
        self.out.push_str("}\n");
        self.names.insert(String::from(name), ());
        self.fields = positions;
        self.counts.push(0);
        Ok(())
    }

    /// Writes one row of the open section: cells in declared field order, `-` for null and
    /// `~` for an absent field. A member outside the declared fields or with an array or
    /// object value (a stream has no attachments), and a row with no open section, are
    /// [`ErrorKind::InvalidArgument`]; out-of-domain numbers are
    /// [`ErrorKind::GcfOutOfRange`]. A rejected row writes nothing.
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericStreamEncoder;
    /// use agentwire::json;
    /// let mut stream = GenericStreamEncoder::new();
    /// stream.begin_section("users", &["id", "tags"])?;
    /// stream.row(json::parse(r#"{"id":1,"tags":null}"#)?.as_object().unwrap())?;
    /// let nested = json::parse(r#"{"id":2,"tags":["x"]}"#)?;
    /// assert_eq!(stream.row(nested.as_object().unwrap()).unwrap_err().code(), "INVALID_ARGUMENT");
    /// assert_eq!(stream.finish(), "GCF profile=generic\n## users [?]{id,tags}\n1|-\n##! summary counts=1\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn row(&mut self, row: &Map) -> Result<()> {
        let Some(count) = self.counts.last_mut() else {
            return Err(invalid("a row before the first section"));
        };
        let mut cells: Vec<Option<&Value>> = alloc::vec![None; self.fields.len()];
        for (key, value) in row.iter() {
            let Some(&position) = self.fields.get(key) else {
                return Err(invalid(alloc::format!(
                    "field {key:?} is not in the section's declared fields"
                )));
            };
            if matches!(value, Value::Array(_) | Value::Object(_)) {
                return Err(invalid(alloc::format!(
                    "field {key:?} holds a {}: streaming rows carry scalars only",
                    value.type_name()
                )));
            }
            if let Some(cell) = cells.get_mut(position) {
                *cell = Some(value);
            }
        }
        let start = self.out.len();
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                self.out.push('|');
            }
            let written = match cell {
                // The stream encoder writes the 3.5.3 form, which 3.6.0 leaves unchanged
                // (the gcf crate factors no constants in streams).
                Some(value) => scalar::write_scalar(&mut self.out, value, SpecVersion::V3_5_3),
                None => {
                    self.out.push('~');
                    Ok(())
                }
            };
            if let Err(error) = written {
                self.out.truncate(start);
                return Err(error);
            }
        }
        self.out.push('\n');
        *count += 1;
        Ok(())
    }

    /// Appends the trailer (one count per section, SPEC §8.4; a bare `##! summary` when no
    /// section was opened) and returns the payload.
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericStreamEncoder;
    /// let mut stream = GenericStreamEncoder::new();
    /// stream.begin_section("a", &["x"])?;
    /// stream.begin_section("b", &["y"])?;
    /// assert!(stream.finish().ends_with("## a [?]{x}\n## b [?]{y}\n##! summary counts=0,0\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(mut self) -> String {
        self.out.push_str("##! summary");
        for (i, count) in self.counts.iter().enumerate() {
            self.out.push_str(if i == 0 { " counts=" } else { "," });
            write_u64(&mut self.out, *count as u64);
        }
        self.out.push('\n');
        self.out
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}
