//! The JSON forms of keyed sets (`{"name"?, "key", "fields"?, "rows": [{…}]}`, rows as
//! objects) and generic deltas (the conformance-suite shape), which the CLI, the JS API and the
//! fixture runner read and write.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::{GenericDelta, KeyedSet, savings_percent};
use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl KeyedSet {
    /// Reads the JSON form `{"name"?, "key", "fields"?, "rows": [{…}, …]}`. Without `fields`,
    /// the columns are the union of the rows' keys in first-seen order (SPEC §7.4.3). A row
    /// member that is not a declared field is an error; a declared field a row lacks is null.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// use agentwire::json;
    /// let base = KeyedSet::from_value(&json::parse(
    ///     r#"{"name":"orders","key":"id","fields":["id","status"],
    ///        "rows":[{"id":1,"status":"open"},{"id":2,"status":"open"}]}"#,
    /// )?)?;
    /// let mut current = base.clone();
    /// current.rows[1][1] = "shipped".into();
    /// let wire = keyed::encode_delta(&keyed::diff(&base, &current)?)?;
    /// assert!(wire.ends_with("## changed [1]{@id,status}\n2|shipped\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<KeyedSet> {
        let object = value
            .as_object()
            .ok_or_else(|| invalid("a keyed set is an object {key, fields, rows}"))?;
        let name = optional_string(object, "name")?.unwrap_or_default();
        let key = optional_string(object, "key")?
            .ok_or_else(|| invalid("a keyed set needs \"key\", its identity field"))?;
        let rows = object.get("rows").unwrap_or(&Value::Null);
        let rows = match rows {
            Value::Array(rows) => rows.as_slice(),
            Value::Null => &[],
            other => {
                return Err(invalid(format!(
                    "\"rows\" must be an array, not {}",
                    other.type_name()
                )));
            }
        };
        let fields = match object.get("fields") {
            Some(fields) => string_list(fields, "fields")?,
            None => field_union(rows)?,
        };
        let rows = rows_from_values(&fields, rows, "rows")?;
        Ok(KeyedSet {
            name,
            key,
            fields,
            rows,
        })
    }

    /// The set as `{"name"?, "key", "fields", "rows"}` (rows as objects; `name` only when
    /// set).
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::KeyedSet;
    /// use agentwire::json::{self, WriteOptions};
    /// let set = KeyedSet::new("", "id", vec!["id".into()]);
    /// assert_eq!(json::to_string(&set.to_value(), WriteOptions::PLAIN)?, r#"{"key":"id","fields":["id"],"rows":[]}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut members = Vec::with_capacity(4);
        if !self.name.is_empty() {
            members.push(("name".to_string(), Value::String(self.name.clone())));
        }
        members.push(("key".to_string(), Value::String(self.key.clone())));
        members.push(("fields".to_string(), strings_value(&self.fields)));
        members.push(("rows".to_string(), rows_value(&self.fields, &self.rows)));
        Value::Object(Map::from_members(members))
    }
}

impl GenericDelta {
    /// Reads the JSON form `{"tool"?, "key", "fields"?, "baseRoot", "newRoot"?, "added"?,
    /// "changed"?, "removed"?, "savings"?, "deltaTokens"?, "fullTokens"?}` (the
    /// conformance-suite shape; rows are objects). Without `savings`, positive `fullTokens`
    /// gives [`savings_percent`]`(deltaTokens, fullTokens)`.
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericDelta;
    /// use agentwire::json;
    /// let delta = GenericDelta::from_value(&json::parse(
    ///     r#"{"key":"id","fields":["id"],"baseRoot":"b","newRoot":"n","removed":[1],"deltaTokens":30,"fullTokens":160}"#,
    /// )?)?;
    /// assert_eq!(delta.savings.as_deref(), Some("81%"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<GenericDelta> {
        let object = value
            .as_object()
            .ok_or_else(|| invalid("a generic delta is an object {key, baseRoot, newRoot, …}"))?;
        let key = optional_string(object, "key")?
            .ok_or_else(|| invalid("a generic delta needs \"key\", its identity field"))?;
        let added = object.get("added").and_then(Value::as_array).unwrap_or(&[]);
        let changed = object
            .get("changed")
            .and_then(Value::as_array)
            .unwrap_or(&[]);
        let fields = match object.get("fields") {
            Some(fields) => string_list(fields, "fields")?,
            None => field_union(added.iter().chain(changed))?,
        };
        let removed = match object.get("removed") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(ids)) => ids.clone(),
            Some(other) => {
                return Err(invalid(format!(
                    "\"removed\" must be an array of identity values, not {}",
                    other.type_name()
                )));
            }
        };
        let tokens = |name: &str| {
            object.get(name).and_then(|v| match v {
                // Literal numbers (encoder input) keep their text.
                Value::Number(n) => n
                    .as_u64()
                    .or_else(|| n.as_literal().and_then(|t| t.parse().ok())),
                _ => None,
            })
        };
        let savings = match optional_string(object, "savings")? {
            Some(savings) => Some(savings),
            None => tokens("fullTokens")
                .and_then(|full| savings_percent(tokens("deltaTokens").unwrap_or(0), full)),
        };
        Ok(GenericDelta {
            tool: optional_string(object, "tool")?.filter(|t| !t.is_empty()),
            added: rows_from_values(&fields, added, "added")?,
            changed: rows_from_values(&fields, changed, "changed")?,
            key,
            fields,
            base_root: optional_string(object, "baseRoot")?.unwrap_or_default(),
            new_root: optional_string(object, "newRoot")?.unwrap_or_default(),
            removed,
            savings,
        })
    }

    /// The delta in the form [`GenericDelta::from_value`] reads.
    ///
    /// ```
    /// use agentwire::gcf::v3::GenericDelta;
    /// use agentwire::json;
    /// let text = r#"{"key":"id","fields":["id"],"baseRoot":"b","newRoot":"n","added":[],"changed":[],"removed":[1]}"#;
    /// let delta = GenericDelta::from_value(&json::parse(text)?)?;
    /// assert_eq!(json::to_string(&delta.to_value(), json::WriteOptions::PLAIN)?, text);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut members = Vec::with_capacity(9);
        if let Some(tool) = &self.tool {
            members.push(("tool".to_string(), Value::String(tool.clone())));
        }
        members.push(("key".to_string(), Value::String(self.key.clone())));
        members.push(("fields".to_string(), strings_value(&self.fields)));
        members.push((
            "baseRoot".to_string(),
            Value::String(self.base_root.clone()),
        ));
        members.push(("newRoot".to_string(), Value::String(self.new_root.clone())));
        members.push(("added".to_string(), rows_value(&self.fields, &self.added)));
        members.push((
            "changed".to_string(),
            rows_value(&self.fields, &self.changed),
        ));
        members.push(("removed".to_string(), Value::Array(self.removed.clone())));
        if let Some(savings) = &self.savings {
            members.push(("savings".to_string(), Value::String(savings.clone())));
        }
        Value::Object(Map::from_members(members))
    }
}

fn optional_string(object: &Map, name: &str) -> Result<Option<String>> {
    match object.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(format!(
            "\"{name}\" must be a string, not {}",
            other.type_name()
        ))),
    }
}

fn string_list(value: &Value, name: &str) -> Result<Vec<String>> {
    let items = value
        .as_array()
        .ok_or_else(|| invalid(format!("\"{name}\" must be an array of strings")))?;
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(ToString::to_string)
                .ok_or_else(|| invalid(format!("\"{name}\" must be an array of strings")))
        })
        .collect()
}

/// The keys of `rows` (objects) in first-seen order.
fn field_union<'a>(rows: impl IntoIterator<Item = &'a Value>) -> Result<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut fields = Vec::new();
    for row in rows {
        let row = row
            .as_object()
            .ok_or_else(|| invalid("a keyed-set row must be an object"))?;
        for key in row.keys() {
            if seen.insert(key) {
                fields.push(key.to_string());
            }
        }
    }
    Ok(fields)
}

/// Rows given as objects → cells in `fields` order. Unknown members are errors (they would
/// vanish from the wire and the root); absent fields are null.
fn rows_from_values(fields: &[String], rows: &[Value], what: &str) -> Result<Vec<Vec<Value>>> {
    let column: BTreeMap<&str, usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.as_str(), i))
        .collect();
    let mut out = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let object = row.as_object().ok_or_else(|| {
            invalid(format!(
                "{what}[{index}] must be an object, not {}",
                row.type_name()
            ))
        })?;
        let mut cells = vec![Value::Null; fields.len()];
        for (name, value) in object.iter() {
            let at = *column.get(name).ok_or_else(|| {
                invalid(format!(
                    "{what}[{index}] has member {name:?}, which is not a declared field"
                ))
            })?;
            cells[at] = value.clone();
        }
        out.push(cells);
    }
    Ok(out)
}

fn strings_value(items: &[String]) -> Value {
    Value::Array(items.iter().map(|s| Value::String(s.clone())).collect())
}

fn rows_value(fields: &[String], rows: &[Vec<Value>]) -> Value {
    Value::Array(
        rows.iter()
            .map(|cells| {
                Value::Object(Map::from_members(
                    fields.iter().cloned().zip(cells.iter().cloned()).collect(),
                ))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn from_value_maps_rows_to_columns() {
        let set = KeyedSet::from_value(
            &json::parse(r#"{"key":"id","fields":["id","a","b"],"rows":[{"b":2,"id":1}]}"#)
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            set.rows,
            [vec![
                Value::from(json::Number::from_i64(1)),
                Value::Null,
                json::Number::from_i64(2).into()
            ]]
        );
        let back = set.to_value();
        assert_eq!(
            json::to_string(&back, json::WriteOptions::PLAIN).unwrap(),
            r#"{"key":"id","fields":["id","a","b"],"rows":[{"id":1,"a":null,"b":2}]}"#
        );
        let unknown = json::parse(r#"{"key":"id","fields":["id"],"rows":[{"id":1,"x":2}]}"#);
        let e = KeyedSet::from_value(&unknown.unwrap()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.message().contains("\"x\""), "{}", e.message());
    }

    #[test]
    fn from_value_without_fields_uses_the_union() {
        let set = KeyedSet::from_value(
            &json::parse(r#"{"key":"id","rows":[{"id":1,"a":2},{"b":3,"id":2}]}"#).unwrap(),
        )
        .unwrap();
        assert_eq!(set.fields, ["id", "a", "b"]);
        assert_eq!(set.rows[1][1], Value::Null);
    }

    #[test]
    fn delta_from_value_computes_savings() {
        let delta = GenericDelta::from_value(
            &json::parse(
                r#"{"key":"id","fields":["id"],"baseRoot":"b","newRoot":"n","removed":[1],
                    "deltaTokens":30,"fullTokens":160}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(delta.savings.as_deref(), Some("81%"));
        assert_eq!(delta.removed.len(), 1);
        assert!(!delta.is_empty());
    }
}
