//! Bench only: the `serde-wasm-bindgen` path the design card names, for the calls the tape
//! carries in the wasm modules (GCX1 decode, GCF 3.5.3 generic decode and encode). Values cross
//! as JS values, built or read by `serde_wasm_bindgen` one property at a time; the codec is
//! the same core call the tape path runs. `bench/node/serde-wasm.mjs` times both paths side by
//! side; docs/js-boundary.md has the numbers. Built by `make bench-wasm-serde`, never shipped.

use agentwire::gcf::v3;
use agentwire::gcx::{self, BorrowedSection, DecodeOptions};
use agentwire::json::Value;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

fn fail(error: agentwire::Error) -> JsValue {
    JsValue::from_str(&format!("{}: {}", error.code(), error.message()))
}

/// JS objects for maps (as `gcx.decode` and `gcf.decodeGeneric` return), not `Map`s.
fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true)
}

/// `{sections: [{tool, fields, meta, version, rows: [{field: cell, …}]}]}`, as `gcx.decode`.
struct Sections<'s, 'a>(&'s [BorrowedSection<'a>]);
struct SectionOut<'s, 'a>(&'s BorrowedSection<'a>);
struct Rows<'s, 'a>(&'s BorrowedSection<'a>);
struct Row<'s, 'a>(&'s [String], &'s [std::borrow::Cow<'a, str>]);

impl Serialize for Sections<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut top = s.serialize_map(Some(1))?;
        top.serialize_key("sections")?;
        top.serialize_value(&self.0.iter().map(SectionOut).collect::<Vec<_>>())?;
        top.end()
    }
}

impl Serialize for SectionOut<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let header = &self.0.header;
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("tool", &header.tool)?;
        m.serialize_entry("fields", &header.fields)?;
        m.serialize_entry("meta", &header.meta)?;
        m.serialize_entry("version", &i64::from(gcx::VERSION))?;
        m.serialize_entry("rows", &Rows(self.0))?;
        m.end()
    }
}

impl Serialize for Rows<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let rows = self.0.rows();
        let mut seq = s.serialize_seq(Some(rows.len()))?;
        for cells in rows {
            seq.serialize_element(&Row(&self.0.header.fields, cells))?;
        }
        seq.end()
    }
}

impl Serialize for Row<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (field, cell) in self.0.iter().zip(self.1) {
            m.serialize_entry(field, cell.as_ref())?;
        }
        m.end()
    }
}

/// GCX1 decode through serde-wasm-bindgen (`gcx.decode`'s result).
#[wasm_bindgen(js_name = gcxDecode)]
pub fn gcx_decode(payload: &str) -> Result<JsValue, JsValue> {
    let sections = gcx::decode(payload, &DecodeOptions::default())
        .into_borrowed()
        .map_err(fail)?;
    Sections(&sections)
        .serialize(&serializer())
        .map_err(JsValue::from)
}

/// GCF generic decode through serde-wasm-bindgen (`gcf.decodeGeneric`'s result).
#[wasm_bindgen(js_name = gcfDecodeGeneric)]
pub fn gcf_decode_generic(text: &str) -> Result<JsValue, JsValue> {
    let value = v3::decode_generic(text).map_err(fail)?;
    value.serialize(&serializer()).map_err(JsValue::from)
}

/// GCF 3.5.3 generic encode of a JS value read by serde-wasm-bindgen
/// (`gcf.encodeGeneric(value, {version: '3.5.3'})`).
#[wasm_bindgen(js_name = gcfEncodeGeneric353)]
pub fn gcf_encode_generic_353(value: JsValue) -> Result<String, JsValue> {
    let value: Value = serde_wasm_bindgen::from_value(value).map_err(JsValue::from)?;
    let options = v3::EncodeOptions {
        version: agentwire::gcf::v3::SpecVersion::V3_5_3,
        lossless: false,
    };
    v3::encode_generic_with(&value, &options).map_err(fail)
}
