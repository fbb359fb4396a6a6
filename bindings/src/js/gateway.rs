//! The gateway contracts: tool ids, ChoiceCards, budgets, browse paths, sessions.
//!
//! Token counts come from the caller's `counter` when it passes one, else from exact cl100k
//! (in the builds that carry it: the native addon); the JSON Schema validator likewise from
//! the caller's `validator`, else from the built-in one (native). A wasm module carries
//! neither, so its JS layer always passes a counter, and a validator when the page has one.

use agentwire::Result;
use agentwire::gateway::schema::ArgsValidator;
use agentwire::tokens::TokenCounter;

use crate::call::{Call, JsCounter, JsValidator, Tape, invalid};
use crate::shapes::gateway::{self as shapes, GatewaySession};

/// Runs `f` with the counter this call uses.
fn with_counter<T>(call: &Call<'_>, f: impl FnOnce(&dyn TokenCounter) -> Result<T>) -> Result<T> {
    match call.hooks() {
        Some(hooks) if hooks.has_counter() => f(&JsCounter(hooks)),
        _ => {
            #[cfg(feature = "tokens")]
            {
                f(crate::js::tokens::tokenizer(
                    agentwire::tokens::Encoding::Cl100kBase,
                )?)
            }
            #[cfg(not(feature = "tokens"))]
            {
                Err(invalid(
                    "options.counter: this build counts no tokens itself; pass a counter (text) => number",
                ))
            }
        }
    }
}

/// Runs `f` with the validator this call uses.
fn with_validator<T>(
    call: &Call<'_>,
    f: impl FnOnce(&dyn ArgsValidator) -> Result<T>,
) -> Result<T> {
    match call.hooks() {
        Some(hooks) if hooks.has_validator() => f(&JsValidator(hooks)),
        #[cfg(feature = "schema")]
        _ => f(crate::js::schema::builtin()),
        #[cfg(not(feature = "schema"))]
        Some(hooks) => f(&JsValidator(hooks)),
        #[cfg(not(feature = "schema"))]
        None => Err(invalid(
            "pass a validator (agentwire/schema) to the session",
        )),
    }
}

/// `gateway.toolIdDerivation(tool, options)`.
pub fn tool_id_derivation(call: &mut Call<'_>) -> Result<Tape> {
    let tool = call.value()?;
    let value = shapes::tool_id_derivation(&tool, &call.value()?)?;
    Ok(call.tape(&value))
}

/// `gateway.toolId(tool, options)`.
pub fn tool_id(call: &mut Call<'_>) -> Result<Tape> {
    let tool = call.value()?;
    let value = shapes::tool_id(&tool, &call.value()?)?;
    Ok(call.tape(&value))
}

/// `gateway.parseToolId(value)`.
pub fn parse_tool_id(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::parse_tool_id(&call.value()?)?;
    Ok(call.tape(&value))
}

/// `gateway.formatToolId(parts)`.
pub fn format_tool_id(call: &mut Call<'_>) -> Result<String> {
    shapes::format_tool_id(&call.value()?)
}

/// `gateway.card(item, options)`.
pub fn card(call: &mut Call<'_>) -> Result<Tape> {
    let item = call.value()?;
    let options = call.value()?;
    with_counter(call, |counter| {
        Ok(call.tape(&shapes::card(&item, &options, counter)?))
    })
}

/// `gateway.truncate(text, budget)`: the text is the main input.
pub fn truncate(call: &mut Call<'_>) -> Result<Tape> {
    let budget = match call.value()? {
        agentwire::json::Value::Number(n) => n.as_i64(),
        _ => None,
    }
    .ok_or_else(|| invalid("budget must be an integer"))?;
    let text = call.text("text")?;
    with_counter(call, |counter| {
        Ok(call.tape(&shapes::truncate(text, budget, counter)))
    })
}

/// `gateway.browseCards(items, options)`.
pub fn browse_cards(call: &mut Call<'_>) -> Result<Tape> {
    let items = call.value()?;
    let options = call.value()?;
    with_counter(call, |counter| {
        Ok(call.tape(&shapes::browse_cards(&items, &options, counter)?))
    })
}

/// `gateway.parsePath(path)`.
pub fn parse_path(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::parse_path(&call.value()?)?;
    Ok(call.tape(&value))
}

/// `new gateway.BrowseSession(options)`.
pub fn session_new(call: &mut Call<'_>) -> Result<GatewaySession> {
    GatewaySession::with_options(&call.value()?)
}

/// `session.register(toolDefs, options)`.
pub fn session_register(session: &mut GatewaySession, call: &mut Call<'_>) -> Result<Tape> {
    let defs = call.value()?;
    let value = session.register_value(defs, &call.value()?)?;
    Ok(call.tape(&value))
}

/// `session.browseRanked(ranked, options)`.
pub fn session_browse_ranked(session: &mut GatewaySession, call: &mut Call<'_>) -> Result<Tape> {
    let ranked = call.value()?;
    let options = call.value()?;
    with_counter(call, |counter| {
        Ok(call.tape(&session.browse_ranked_value(&ranked, &options, counter)?))
    })
}

/// `session.dispatch(metaTool, args, ranked)`: `ranked` is the router's answer, or null.
pub fn session_dispatch(session: &mut GatewaySession, call: &mut Call<'_>) -> Result<Tape> {
    let meta_tool = call.string("metaTool")?;
    let arguments = call.value()?;
    let ranked = call.value()?;
    with_counter(call, |counter| {
        with_validator(call, |validator| {
            let reply =
                session.dispatch_value(&meta_tool, &arguments, &ranked, counter, validator)?;
            Ok(call.tape(&reply))
        })
    })
}

/// `session.seen()`.
pub fn session_seen(session: &mut GatewaySession, call: &mut Call<'_>) -> Result<Tape> {
    Ok(call.tape(&session.seen_value()))
}

/// `session.reset()`.
pub fn session_reset(session: &mut GatewaySession, _: &mut Call<'_>) -> Result<()> {
    session.reset();
    Ok(())
}
