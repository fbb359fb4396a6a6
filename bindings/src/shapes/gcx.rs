//! GCX1's JS shapes beyond the core's JSON forms (`agentwire::gcx::document`): the workspace
//! request check over JS values, and the states of the streaming classes `gcx.Encoder` and
//! `gcx.Decoder`.

use agentwire::gcx::document::{header_from_value, item_to_value, write_op, write_section_value};
use agentwire::gcx::scope::{self, ToolDefinition, ToolRequest};
use agentwire::gcx::{self, DecodeOptions, Decoder, EncodeOptions, Encoder};
use agentwire::json::{Map, Value};
use agentwire::{Error, ErrorKind, Result};

use super::read_array;

/// `gcx.checkRequest(definitions, request, workspaceRepos)`: `null` when the request is legal,
/// else the error envelope.
pub fn check_request(
    definitions: &Value,
    request: &Value,
    workspace_repos: &Value,
) -> Result<Value> {
    let definitions = read_array(definitions, "definitions", ToolDefinition::from_value)?;
    let request = ToolRequest::from_value(request)?;
    let repos = read_array(workspace_repos, "workspaceRepos", |v| {
        v.as_str()
            .map(String::from)
            .ok_or_else(|| Error::new(ErrorKind::InvalidArgument, "expected a repo name string"))
    })?;
    Ok(
        match scope::check_request(&definitions, &request, &repos)? {
            None => Value::Null,
            Some(envelope) => envelope.to_value(),
        },
    )
}

/// The state of a `gcx.Encoder`: a streaming encoder whose output is taken piece by piece.
#[derive(Debug)]
pub struct GcxStreamEncoder {
    encoder: Encoder<String>,
    fields: Vec<String>,
    max_depth: usize,
}

impl GcxStreamEncoder {
    /// A new encoder with its options (`{lossless?, maxDepth?, …}`).
    pub fn with_options(options: &Value) -> Result<GcxStreamEncoder> {
        let options = EncodeOptions::from_value(options)?;
        Ok(GcxStreamEncoder {
            max_depth: options.max_depth,
            encoder: Encoder::new(String::new(), options),
            fields: Vec::new(),
        })
    }

    /// The nesting limit of values this encoder takes (its `maxDepth` option).
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Starts a section from `{tool, fields, meta?}` (rows or ops in it are written too).
    pub fn begin_section_value(&mut self, section: &Value) -> Result<()> {
        self.fields = header_from_value(section)?.fields;
        write_section_value(&mut self.encoder, section)
    }

    /// Writes a row (array of cells, or object keyed by field).
    pub fn write_row_value(&mut self, row: Value) -> Result<()> {
        let mut op = Map::new();
        op.insert("row".into(), row);
        write_op(&mut self.encoder, &Value::Object(op), &self.fields)
    }

    /// Writes a comment line.
    pub fn write_comment(&mut self, text: &str) -> Result<()> {
        self.encoder.write_comment(text)
    }

    /// Takes the text written since the last call.
    pub fn take(&mut self) -> String {
        std::mem::take(self.encoder.sink_mut())
    }
}

/// The state of a `gcx.Decoder`: a push decoder yielding one item at a time.
#[derive(Debug)]
pub struct GcxStreamDecoder {
    decoder: Decoder<'static>,
    fields: Vec<String>,
}

impl GcxStreamDecoder {
    /// A new decoder with its options (`{maxLineBytes?, maxSections?, maxRows?, maxCells?,
    /// comments?}`).
    pub fn with_options(options: &Value) -> Result<GcxStreamDecoder> {
        let options = DecodeOptions::from_value(options)?;
        Ok(GcxStreamDecoder {
            decoder: Decoder::new(options),
            fields: Vec::new(),
        })
    }

    /// Appends input bytes.
    pub fn push(&mut self, chunk: &[u8]) {
        self.decoder.push(chunk);
    }

    /// Marks the end of input.
    pub fn finish(&mut self) {
        self.decoder.finish();
    }

    /// The next item (`{type: "section" | "row" | "comment", …}`), or `None` when the input
    /// pushed so far holds no further complete item.
    pub fn next_value(&mut self) -> Result<Option<Value>> {
        match self.decoder.next()? {
            None => Ok(None),
            Some(item) => {
                if let gcx::Item::Section(header) = &item {
                    self.fields.clone_from(&header.fields);
                }
                Ok(Some(item_to_value(&item, &self.fields)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_decoder_items() {
        let mut dec = GcxStreamDecoder::with_options(&Value::Null).unwrap();
        dec.push(b"GCX1 tool=x fields=a\nv\n");
        dec.finish();
        let text = |v: Value| agentwire::json::to_string(&v, agentwire::json::WriteOptions::PLAIN);
        assert_eq!(
            text(dec.next_value().unwrap().unwrap()).unwrap(),
            r#"{"type":"section","tool":"x","fields":["a"],"meta":{},"version":1}"#
        );
        assert_eq!(
            text(dec.next_value().unwrap().unwrap()).unwrap(),
            r#"{"type":"row","row":{"a":"v"}}"#
        );
        assert_eq!(dec.next_value().unwrap(), None);
    }
}
