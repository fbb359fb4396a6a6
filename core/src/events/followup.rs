//! The next request's input after function calls: the context, then per call (in completion
//! order) its `function_call` item and its `function_call_output`.

use alloc::vec::Vec;

use super::accumulate::FunctionCall;
use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

/// `context` followed by `{"type":"function_call","name","arguments","call_id"}` and
/// `{"type":"function_call_output","call_id","output"}` per call; `output_of(call_id)` gives
/// each output (`EVENTS_MISSING_OUTPUT` when it has none).
///
/// ```
/// use agentwire::events::{followup::follow_up_input, FunctionCall};
/// use agentwire::json::{self, WriteOptions};
/// let context = [json::parse(r#"{"role":"user","content":"weather?"}"#)?];
/// let calls = [FunctionCall { id: "fc_1".into(), call_id: "call_1".into(), name: "weather".into(), arguments: "{}".into() }];
/// let input = follow_up_input(&context, &calls, |call_id| (call_id == "call_1").then_some("sunny"))?;
/// assert_eq!(input.len(), 3);
/// assert_eq!(json::to_string(&input[2], WriteOptions::PLAIN)?, r#"{"type":"function_call_output","call_id":"call_1","output":"sunny"}"#);
/// let err = follow_up_input(&context, &calls, |_| None).unwrap_err();
/// assert_eq!(err.code(), "EVENTS_MISSING_OUTPUT");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn follow_up_input<'a>(
    context: &[Value],
    calls: &[FunctionCall],
    output_of: impl Fn(&str) -> Option<&'a str>,
) -> Result<Vec<Value>> {
    let mut input = context.to_vec();
    for call in calls {
        let output = output_of(&call.call_id).ok_or_else(|| {
            Error::new(
                ErrorKind::EventsMissingOutput,
                alloc::format!(
                    "no output for function call {:?} ({})",
                    call.call_id,
                    call.name
                ),
            )
        })?;
        let mut item = Map::new();
        item.insert("type".into(), "function_call".into());
        item.insert("name".into(), call.name.as_str().into());
        item.insert("arguments".into(), call.arguments.as_str().into());
        item.insert("call_id".into(), call.call_id.as_str().into());
        input.push(Value::Object(item));
        let mut result = Map::new();
        result.insert("type".into(), "function_call_output".into());
        result.insert("call_id".into(), call.call_id.as_str().into());
        result.insert("output".into(), output.into());
        input.push(Value::Object(result));
    }
    Ok(input)
}
