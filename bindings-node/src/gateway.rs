//! Gateway contracts, measured with exact cl100k_base counts and validated with the built-in
//! JSON Schema validator.

use agentwire::gateway::schema::JsonSchemaValidator;
use agentwire::tokens::{Encoding, Tiktoken};
use agentwire_bindings::api;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

const COUNTER: Tiktoken = Tiktoken(Encoding::Cl100kBase);

/// Gateway: the derivation of an MCP tool's id, before grammar checks (JSON).
#[napi(catch_unwind)]
pub fn gateway_tool_id_derivation(tool: String, options: String) -> Result<String> {
    api::gateway_tool_id_derivation(&tool, &options).map_err(js_error)
}

/// Gateway: an MCP tool's canonical id, parts and catalog item (JSON).
#[napi(catch_unwind)]
pub fn gateway_tool_id(tool: String, options: String) -> Result<String> {
    api::gateway_tool_id(&tool, &options).map_err(js_error)
}

/// Gateway: the parts of a tool id (JSON value in, JSON out).
#[napi(catch_unwind)]
pub fn gateway_parse_tool_id(value: String) -> Result<String> {
    api::gateway_parse_tool_id(&value).map_err(js_error)
}

/// Gateway: a tool id from its parts (JSON string out).
#[napi(catch_unwind)]
pub fn gateway_format_tool_id(parts: String) -> Result<String> {
    api::gateway_format_tool_id(&parts).map_err(js_error)
}

/// Gateway: one item's budgeted ChoiceCard and its renderings (JSON).
#[napi(catch_unwind)]
pub fn gateway_card(item: String, options: String) -> Result<String> {
    api::gateway_card(&item, &options, &COUNTER).map_err(js_error)
}

/// Gateway: a description truncated to a token budget (JSON report).
#[napi(catch_unwind)]
pub fn gateway_truncate(text: String, budget: i64) -> Result<String> {
    api::gateway_truncate(&text, budget, &COUNTER).map_err(js_error)
}

/// Gateway: a bounded tool_browse reply from items (JSON).
#[napi(catch_unwind)]
pub fn gateway_browse_cards(items: String, options: String) -> Result<String> {
    api::gateway_browse_cards(&items, &options, &COUNTER).map_err(js_error)
}

/// Gateway: the segments of a browse path (JSON value in, JSON out).
#[napi(catch_unwind)]
pub fn gateway_parse_path(value: String) -> Result<String> {
    api::gateway_parse_path(&value).map_err(js_error)
}

/// Gateway session: a catalog, cache-stable browsing and meta-tool dispatch.
#[napi]
#[derive(Debug)]
pub struct GatewaySession {
    session: api::GatewaySession,
    // Kept with the session so compiled schemas are reused across calls.
    validator: JsonSchemaValidator,
}

#[napi]
impl GatewaySession {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: String) -> Result<GatewaySession> {
        let session = api::GatewaySession::new(&options).map_err(js_error)?;
        Ok(GatewaySession {
            session,
            validator: JsonSchemaValidator::default(),
        })
    }

    #[napi(catch_unwind)]
    pub fn register(&mut self, tool_defs: String, options: String) -> Result<String> {
        self.session
            .register(&tool_defs, &options)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn browse_ranked(&mut self, ranked: String, options: String) -> Result<String> {
        self.session
            .browse_ranked(&ranked, &options, &COUNTER)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn dispatch(
        &mut self,
        meta_tool: String,
        arguments: String,
        ranked: String,
    ) -> Result<String> {
        self.session
            .dispatch(&meta_tool, &arguments, &ranked, &COUNTER, &self.validator)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn seen(&self) -> Result<String> {
        self.session.seen().map_err(js_error)
    }

    #[napi]
    pub fn reset(&mut self) {
        self.session.reset();
    }
}
