//! The gateway contracts as their own wasm module (`gateway.load()` in browsers), so pages that
//! only encode keep the default module small. The token counter and the JSON Schema validator
//! are JavaScript functions (`agentwire/tokens` and `agentwire/schema` provide exact ones); an
//! exception thrown by either is rethrown after the call. Errors are thrown as JS `Error`s
//! whose message is [`api::error_json`], as in the default module.

use core::cell::RefCell;

use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
use agentwire::json::{self, Value};
use agentwire::tokens::TokenCounter;
use agentwire::{Error, ErrorKind};
use agentwire_bindings::{api, FromValue};
use wasm_bindgen::prelude::*;

fn js_error(e: Error) -> JsValue {
    js_sys::Error::new(&api::error_json(&e)).into()
}

/// The crate version, checked by the npm loader.
#[wasm_bindgen]
pub fn version() -> String {
    api::version().to_string()
}

/// A `(text) => number` counter; the first exception or bad result is kept and rethrown.
struct JsCounter<'a> {
    count: &'a js_sys::Function,
    failure: RefCell<Option<JsValue>>,
}

impl TokenCounter for JsCounter<'_> {
    fn count_tokens(&self, text: &str) -> usize {
        if self.failure.borrow().is_some() {
            return 0;
        }
        match self.count.call1(&JsValue::NULL, &JsValue::from_str(text)) {
            Ok(n) => match n.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 => n as usize,
                _ => {
                    let e = Error::new(
                        ErrorKind::InvalidArgument,
                        "the token counter must return a non-negative integer",
                    );
                    *self.failure.borrow_mut() = Some(js_error(e));
                    0
                }
            },
            Err(e) => {
                *self.failure.borrow_mut() = Some(e);
                0
            }
        }
    }
}

/// A `(schemaText, argsText) => resultText` validator (`agentwire/schema`'s `validator`).
struct JsValidator<'a> {
    validate: Option<&'a js_sys::Function>,
    failure: RefCell<Option<JsValue>>,
}

impl ArgsValidator for JsValidator<'_> {
    fn check(&self, schema: &Value, args: &Value) -> SchemaCheck {
        // Reported as a schema failure so the session state stays as it was; the captured
        // exception is what the caller sees.
        let fail = |e: JsValue| {
            *self.failure.borrow_mut() = Some(e);
            SchemaCheck::SchemaInvalid(String::new())
        };
        let Some(validate) = self.validate else {
            return fail(js_error(Error::new(
                ErrorKind::InvalidArgument,
                "tool_execute validates arguments against the tool's JSON Schema: pass a validator (agentwire/schema) to the session",
            )));
        };
        let text = |v: &Value| json::to_string(v, json::WriteOptions::PLAIN).unwrap_or_default();
        let result = match validate.call2(
            &JsValue::NULL,
            &JsValue::from_str(&text(schema)),
            &JsValue::from_str(&text(args)),
        ) {
            Ok(result) => result,
            Err(e) => return fail(e),
        };
        let Some(result) = result.as_string() else {
            return fail(js_error(Error::new(
                ErrorKind::InvalidArgument,
                "the validator must return the JSON text of a check result",
            )));
        };
        match json::parse(&result).and_then(|v| SchemaCheck::from_value(&v)) {
            Ok(check) => check,
            Err(e) => fail(js_error(e.context("validator result"))),
        }
    }
}

fn counter(count: &js_sys::Function) -> JsCounter<'_> {
    JsCounter {
        count,
        failure: RefCell::new(None),
    }
}

/// The call's result, unless the counter or validator threw during it.
fn settle(
    result: Result<String, Error>,
    failures: &[&RefCell<Option<JsValue>>],
) -> Result<String, JsValue> {
    for failure in failures {
        if let Some(e) = failure.borrow_mut().take() {
            return Err(e);
        }
    }
    result.map_err(js_error)
}

/// Gateway: the derivation of an MCP tool's id, before grammar checks (JSON).
#[wasm_bindgen(js_name = gatewayToolIdDerivation)]
pub fn gateway_tool_id_derivation(tool: &str, options: &str) -> Result<String, JsValue> {
    api::gateway_tool_id_derivation(tool, options).map_err(js_error)
}

/// Gateway: an MCP tool's canonical id, parts and catalog item (JSON).
#[wasm_bindgen(js_name = gatewayToolId)]
pub fn gateway_tool_id(tool: &str, options: &str) -> Result<String, JsValue> {
    api::gateway_tool_id(tool, options).map_err(js_error)
}

/// Gateway: the parts of a tool id (JSON value in, JSON out).
#[wasm_bindgen(js_name = gatewayParseToolId)]
pub fn gateway_parse_tool_id(value: &str) -> Result<String, JsValue> {
    api::gateway_parse_tool_id(value).map_err(js_error)
}

/// Gateway: a tool id from its parts (JSON string out).
#[wasm_bindgen(js_name = gatewayFormatToolId)]
pub fn gateway_format_tool_id(parts: &str) -> Result<String, JsValue> {
    api::gateway_format_tool_id(parts).map_err(js_error)
}

/// Gateway: one item's budgeted ChoiceCard and its renderings (JSON).
#[wasm_bindgen(js_name = gatewayCard)]
pub fn gateway_card(
    item: &str,
    options: &str,
    count: &js_sys::Function,
) -> Result<String, JsValue> {
    let counter = counter(count);
    let result = api::gateway_card(item, options, &counter);
    settle(result, &[&counter.failure])
}

/// Gateway: a description truncated to a token budget (JSON report).
#[wasm_bindgen(js_name = gatewayTruncate)]
pub fn gateway_truncate(
    text: &str,
    budget: f64,
    count: &js_sys::Function,
) -> Result<String, JsValue> {
    let counter = counter(count);
    let result = api::gateway_truncate(text, budget as i64, &counter);
    settle(result, &[&counter.failure])
}

/// Gateway: a bounded tool_browse reply from items (JSON).
#[wasm_bindgen(js_name = gatewayBrowseCards)]
pub fn gateway_browse_cards(
    items: &str,
    options: &str,
    count: &js_sys::Function,
) -> Result<String, JsValue> {
    let counter = counter(count);
    let result = api::gateway_browse_cards(items, options, &counter);
    settle(result, &[&counter.failure])
}

/// Gateway: the segments of a browse path (JSON value in, JSON out).
#[wasm_bindgen(js_name = gatewayParsePath)]
pub fn gateway_parse_path(value: &str) -> Result<String, JsValue> {
    api::gateway_parse_path(value).map_err(js_error)
}

/// Gateway session: a catalog, cache-stable browsing and meta-tool dispatch.
#[wasm_bindgen]
#[derive(Debug)]
pub struct GatewaySession(api::GatewaySession);

#[wasm_bindgen]
impl GatewaySession {
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<GatewaySession, JsValue> {
        api::GatewaySession::new(options)
            .map(GatewaySession)
            .map_err(js_error)
    }

    pub fn register(&mut self, tool_defs: &str, options: &str) -> Result<String, JsValue> {
        self.0.register(tool_defs, options).map_err(js_error)
    }

    #[wasm_bindgen(js_name = browseRanked)]
    pub fn browse_ranked(
        &mut self,
        ranked: &str,
        options: &str,
        count: &js_sys::Function,
    ) -> Result<String, JsValue> {
        let counter = counter(count);
        let result = self.0.browse_ranked(ranked, options, &counter);
        settle(result, &[&counter.failure])
    }

    pub fn dispatch(
        &mut self,
        meta_tool: &str,
        arguments: &str,
        ranked: &str,
        count: &js_sys::Function,
        validate: Option<js_sys::Function>,
    ) -> Result<String, JsValue> {
        let counter = counter(count);
        let validator = JsValidator {
            validate: validate.as_ref(),
            failure: RefCell::new(None),
        };
        let result = self
            .0
            .dispatch(meta_tool, arguments, ranked, &counter, &validator);
        settle(result, &[&counter.failure, &validator.failure])
    }

    pub fn seen(&self) -> Result<String, JsValue> {
        self.0.seen().map_err(js_error)
    }

    pub fn reset(&mut self) {
        self.0.reset();
    }
}

/// Not part of the API: panics on purpose, so tests can check that the trap reaches JS as an
/// `INTERNAL` error and what the module does afterwards (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = __agentwireInternalPanicForTests)]
pub fn internal_panic_for_tests() {
    agentwire_bindings::api::internal_panic_for_tests()
}
