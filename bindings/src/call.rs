//! One call from JavaScript, the same in every runtime: the main input (the payload a decoder
//! reads, as a JS string or bytes), the other arguments as values, the caller's callbacks, and
//! what the call returns.

use agentwire::gateway::schema::{ArgsValidator, SchemaCheck};
use agentwire::json::{self, Value};
use agentwire::tokens::TokenCounter;
use agentwire::{Error, ErrorKind, Result};

use crate::transfer::from_js::TapeReader;
use crate::transfer::to_js::TapeWriter;

/// The main input of a call.
#[derive(Debug, Clone, Copy)]
pub enum Main<'a> {
    /// No main input (`undefined`).
    None,
    /// A JS string, as UTF-8 (lone surrogates became U+FFFD). Results may slice it in JS.
    Text(&'a str),
    /// A `Uint8Array` (or `Buffer`).
    Bytes(&'a [u8]),
}

/// The JavaScript callbacks a call was given (`{counter, validator}`). A runtime implements
/// the raw calls; [`JsCounter`] and [`JsValidator`] turn them into the core's traits. The first
/// failure (an exception a callback threw, or a bad result) is kept and thrown when the call
/// returns, whatever the call's own result.
pub trait Hooks {
    /// Whether the caller passed a counter.
    fn has_counter(&self) -> bool;
    /// Whether the caller passed a validator.
    fn has_validator(&self) -> bool;
    /// `counter(text)`: its result as a number (NaN when it is not one); `None` when there is
    /// no counter or a failure was kept (the callback threw, now or before).
    fn count(&self, text: &str) -> Option<f64>;
    /// `validator(schemaText, argsText)`: `Some(Some(text))`, `Some(None)` when the result is
    /// not a string; `None` when there is no validator or a failure was kept.
    fn validate(&self, schema: &str, args: &str) -> Option<Option<String>>;
    /// Keeps `error` as the call's failure, unless one is kept already.
    fn fail(&self, error: Error);
}

/// The caller's counter as a [`TokenCounter`].
pub struct JsCounter<'a>(pub &'a dyn Hooks);

impl core::fmt::Debug for JsCounter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("JsCounter")
    }
}

impl TokenCounter for JsCounter<'_> {
    fn count_tokens(&self, text: &str) -> usize {
        match self.0.count(text) {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => n as usize,
            Some(_) => {
                self.0.fail(invalid(
                    "the token counter must return a non-negative integer",
                ));
                0
            }
            None => 0,
        }
    }
}

/// The caller's validator as an [`ArgsValidator`]; without one, validating fails with a
/// message that says where to get one.
pub struct JsValidator<'a>(pub &'a dyn Hooks);

impl core::fmt::Debug for JsValidator<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("JsValidator")
    }
}

impl ArgsValidator for JsValidator<'_> {
    fn check(&self, schema: &Value, args: &Value) -> SchemaCheck {
        // A failure is reported as a schema failure so the session state stays as it was; the
        // kept error is what the caller sees.
        let fail = |e: Error| {
            self.0.fail(e);
            SchemaCheck::SchemaInvalid(String::new())
        };
        if !self.0.has_validator() {
            return fail(invalid(
                "tool_execute validates arguments against the tool's JSON Schema: pass a validator (agentwire/schema) to the session",
            ));
        }
        let text = |v: &Value| json::to_string(v, json::WriteOptions::PLAIN).unwrap_or_default();
        match self.0.validate(&text(schema), &text(args)) {
            None => SchemaCheck::SchemaInvalid(String::new()),
            Some(None) => fail(invalid(
                "the validator must return the JSON text of a check result",
            )),
            Some(Some(result)) => {
                match json::parse(&result).and_then(|v| SchemaCheck::from_value(&v)) {
                    Ok(check) => check,
                    Err(e) => fail(e.context("validator result")),
                }
            }
        }
    }
}

/// The arguments of one call.
pub struct Call<'a> {
    main: Main<'a>,
    args: TapeReader<'a>,
    hooks: Option<&'a dyn Hooks>,
    session: Session,
}

/// Which JS boundary calls, and how many object shapes it knows ([`crate::transfer::shapes`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Session {
    /// The boundary's token (0: keep no shapes).
    pub token: u32,
    /// How many shapes it knows.
    pub known: u32,
}

impl Session {
    /// From the number JS passes: `token × 2^32 + known`.
    pub fn from_f64(v: f64) -> Session {
        // NaN and out-of-range numbers (not from our JS) keep no shapes.
        if !(0.0..9_007_199_254_740_992.0).contains(&v) {
            return Session::default();
        }
        let v = v as u64;
        Session {
            token: (v >> 32) as u32,
            known: v as u32,
        }
    }
}

impl core::fmt::Debug for Call<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Call")
            .field("main", &self.main)
            .finish_non_exhaustive()
    }
}

/// What a call gives back to JavaScript.
pub trait Output {
    /// Its kind in the export table, which tells the JS layer how to read it.
    const KIND: &'static str;
}

/// A value result: the tape JS builds the objects from, and the side string.
#[derive(Debug)]
pub struct Tape {
    /// The words (see [`crate::transfer::to_js`]).
    pub words: Vec<u32>,
    /// Strings not sliced from the input.
    pub side: String,
}

impl Tape {
    /// The tape of one value, with shapes of its own (a result made outside a call).
    pub fn of(value: &Value) -> Tape {
        let mut writer = TapeWriter::local(None);
        writer.value(value);
        writer.into()
    }
}

/// A byte result (`Uint8Array` in JS).
#[derive(Debug)]
pub struct Bytes(pub Vec<u8>);

/// Any output, for the runtimes to convert.
#[derive(Debug)]
pub enum Out {
    /// A JS string.
    String(String),
    /// A value, as a tape.
    Tape(Tape),
    /// A `Uint8Array`.
    Bytes(Vec<u8>),
    /// `undefined`.
    Undefined,
    /// A number.
    Number(u32),
    /// A boolean.
    Boolean(bool),
}

impl From<String> for Out {
    fn from(v: String) -> Out {
        Out::String(v)
    }
}
impl From<Tape> for Out {
    fn from(v: Tape) -> Out {
        Out::Tape(v)
    }
}
impl From<Bytes> for Out {
    fn from(v: Bytes) -> Out {
        Out::Bytes(v.0)
    }
}
impl From<()> for Out {
    fn from((): ()) -> Out {
        Out::Undefined
    }
}
impl From<u32> for Out {
    fn from(v: u32) -> Out {
        Out::Number(v)
    }
}
impl From<bool> for Out {
    fn from(v: bool) -> Out {
        Out::Boolean(v)
    }
}

/// The state of a class instance.
pub type State = Box<dyn core::any::Any>;

/// What an export runs.
#[derive(Clone, Copy)]
pub enum Body {
    /// A function.
    Function(fn(&mut Call<'_>) -> Result<Out>),
    /// A class constructor.
    Constructor(fn(&mut Call<'_>) -> Result<State>),
    /// A class method.
    Method(fn(&mut dyn core::any::Any, &mut Call<'_>) -> Result<Out>),
}

impl core::fmt::Debug for Body {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Body::Function(_) => "Function",
            Body::Constructor(_) => "Constructor",
            Body::Method(_) => "Method",
        })
    }
}

/// One export: its JS name, its output kind and its body; its id is its position in
/// [`crate::exports::ENTRIES`].
#[derive(Clone, Copy)]
pub struct Entry {
    /// `name`, `Class.new` or `Class.method`.
    pub name: &'static str,
    /// How the JS layer reads the output: `value`, `string`, `bytes`, `undefined`, `number`,
    /// `boolean`; `class` for a constructor.
    pub kind: &'static str,
    /// What it runs.
    pub body: Body,
}

impl core::fmt::Debug for Entry {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish()
    }
}

impl Entry {
    /// A function entry.
    pub const fn function(
        name: &'static str,
        kind: &'static str,
        body: fn(&mut Call<'_>) -> Result<Out>,
    ) -> Entry {
        Entry {
            name,
            kind,
            body: Body::Function(body),
        }
    }

    /// A constructor entry.
    pub const fn constructor(
        name: &'static str,
        body: fn(&mut Call<'_>) -> Result<State>,
    ) -> Entry {
        Entry {
            name,
            kind: "class",
            body: Body::Constructor(body),
        }
    }

    /// A method entry.
    pub const fn method(
        name: &'static str,
        kind: &'static str,
        body: fn(&mut dyn core::any::Any, &mut Call<'_>) -> Result<Out>,
    ) -> Entry {
        Entry {
            name,
            kind,
            body: Body::Method(body),
        }
    }
}

/// The export of `id`, or `INTERNAL` (a JS layer out of step with this build).
pub fn entry(id: u32) -> Result<&'static Entry> {
    crate::exports::ENTRIES
        .get(id as usize)
        .ok_or_else(|| Error::new(ErrorKind::Internal, format!("no export with id {id}")))
}

/// A method called on an instance of another class.
pub fn wrong_class(method: &str) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("{method} called on an instance of another class"),
    )
}

/// Runs the function `id`.
pub fn run_function(id: u32, call: &mut Call<'_>) -> Result<Out> {
    match entry(id)?.body {
        Body::Function(body) => body(call),
        _ => Err(Error::new(
            ErrorKind::Internal,
            format!("export {id} is not a function"),
        )),
    }
}

/// Runs the constructor `id`.
pub fn run_constructor(id: u32, call: &mut Call<'_>) -> Result<State> {
    match entry(id)?.body {
        Body::Constructor(body) => body(call),
        _ => Err(Error::new(
            ErrorKind::Internal,
            format!("export {id} is not a constructor"),
        )),
    }
}

/// Runs the method `id` on `state` (`None`: the instance has none).
pub fn run_method(
    id: u32,
    state: Option<&mut dyn core::any::Any>,
    call: &mut Call<'_>,
) -> Result<Out> {
    let entry = entry(id)?;
    let Some(state) = state else {
        return Err(crate::js_error::no_instance_state(entry.name));
    };
    match entry.body {
        Body::Method(body) => body(state, call),
        _ => Err(Error::new(
            ErrorKind::Internal,
            format!("export {id} is not a method"),
        )),
    }
}

impl Output for Tape {
    const KIND: &'static str = "value";
}
impl Output for String {
    const KIND: &'static str = "string";
}
impl Output for Bytes {
    const KIND: &'static str = "bytes";
}
impl Output for () {
    const KIND: &'static str = "undefined";
}
impl Output for u32 {
    const KIND: &'static str = "number";
}
impl Output for bool {
    const KIND: &'static str = "boolean";
}

/// The JS type name of a value, for messages.
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// An `INVALID_ARGUMENT` error.
pub fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl<'a> Call<'a> {
    /// A call with its main input, argument tape and callbacks.
    pub fn new(
        main: Main<'a>,
        ops: &'a [u32],
        doubles: &'a [f64],
        text: &'a str,
        hooks: Option<&'a dyn Hooks>,
        session: Session,
    ) -> Call<'a> {
        Call {
            main,
            args: TapeReader::new(ops, doubles, text),
            hooks,
            session,
        }
    }

    /// The main input.
    pub fn main(&self) -> Main<'a> {
        self.main
    }

    /// The main input as text; `name` names it in the error.
    pub fn text(&self, name: &str) -> Result<&'a str> {
        match self.main {
            Main::Text(text) => Ok(text),
            Main::Bytes(_) => Err(invalid(format!("{name} must be a string, got Uint8Array"))),
            Main::None => Err(invalid(format!("{name} must be a string, got undefined"))),
        }
    }

    /// The main input as UTF-8 bytes (a string or a `Uint8Array`).
    pub fn bytes(&self, name: &str) -> Result<&'a [u8]> {
        match self.main {
            Main::Text(text) => Ok(text.as_bytes()),
            Main::Bytes(bytes) => Ok(bytes),
            Main::None => Err(invalid(format!(
                "{name} must be a string or Uint8Array, got undefined"
            ))),
        }
    }

    /// The next argument.
    pub fn value(&mut self) -> Result<Value> {
        self.args.value()
    }

    /// The argument tape, for a typed reader of the next argument (no value tree between).
    pub fn args(&mut self) -> &mut TapeReader<'a> {
        &mut self.args
    }

    /// The next argument, with nesting limited to `max_depth` (`JSON_DEPTH` beyond, as the JSON
    /// parser reports it for text).
    pub fn value_within(&mut self, max_depth: usize) -> Result<Value> {
        self.args.value_within(max_depth)
    }

    /// The next argument, which must be a string.
    pub fn string(&mut self, name: &str) -> Result<String> {
        match self.args.value()? {
            Value::String(s) => Ok(s),
            other => Err(invalid(format!(
                "{name} must be a string, got {}",
                describe(&other)
            ))),
        }
    }

    /// The caller's callbacks.
    pub fn hooks(&self) -> Option<&'a dyn Hooks> {
        self.hooks
    }

    /// A writer for a value result; its strings slice the main input when that was a string,
    /// its shapes are the calling boundary's.
    pub fn writer(&self) -> TapeWriter<'a> {
        let input = match self.main {
            Main::Text(text) => Some(text),
            _ => None,
        };
        TapeWriter::new(input, self.session.token, self.session.known)
    }

    /// The tape of one value, with the calling boundary's shapes.
    pub fn tape(&self, value: &Value) -> Tape {
        let mut writer = self.writer();
        writer.value(value);
        writer.into()
    }
}

impl From<TapeWriter<'_>> for Tape {
    fn from(writer: TapeWriter<'_>) -> Tape {
        let (words, side) = writer.finish();
        Tape { words, side }
    }
}
