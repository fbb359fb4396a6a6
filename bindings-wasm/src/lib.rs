//! The wasm modules: registers the export table of `agentwire-bindings` as wasm-bindgen's
//! `call` and `Instance`, and converts arguments, results and errors; each module is this crate
//! built with one feature (its area). Every export's body, the error's properties
//! ([`agentwire_bindings::js_error`]) and the shapes live in `agentwire-bindings`. A panic
//! aborts (the `wasm` profile has `panic = "abort"`): JS sees a trap, which the package
//! reports as `INTERNAL`.

use std::cell::RefCell;

use js_sys::{Function, Reflect, Uint8Array};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use agentwire_bindings::call::{
    Call, Hooks, Main, Out, Session, State, run_constructor, run_function, run_method,
};
use agentwire_bindings::js_error::{self, Property};

/// The JS `Error` for `error`, with the properties of [`js_error::properties`].
fn error_value(error: &agentwire::Error) -> JsValue {
    let object = js_sys::Error::new(error.message());
    for (name, property) in js_error::properties(error) {
        let value = match property {
            Property::Text(text) => JsValue::from_str(text),
            Property::Position(n) => n.map_or(JsValue::NULL, |n| JsValue::from_f64(n as f64)),
        };
        // Setting a data property on a fresh Error cannot fail.
        let _ = Reflect::set(&object, &name.into(), &value);
    }
    object.into()
}

/// The caller's `{counter, validator}` functions (the gateway calls both, `compact.json` the
/// counter).
struct WasmHooks {
    counter: Option<Function>,
    validator: Option<Function>,
    failure: RefCell<Option<JsValue>>,
}

impl WasmHooks {
    fn settle(&self, result: Result<JsValue, JsValue>) -> Option<JsValue> {
        match result {
            Ok(out) => Some(out),
            Err(exception) => {
                self.failure.borrow_mut().get_or_insert(exception);
                None
            }
        }
    }
}

impl Hooks for WasmHooks {
    fn has_counter(&self) -> bool {
        self.counter.is_some()
    }

    fn has_validator(&self) -> bool {
        self.validator.is_some()
    }

    fn count(&self, text: &str) -> Option<f64> {
        let counter = self.counter.as_ref()?;
        if self.failure.borrow().is_some() {
            return None;
        }
        let out = self.settle(counter.call1(&JsValue::NULL, &text.into()))?;
        Some(out.as_f64().unwrap_or(f64::NAN))
    }

    fn validate(&self, schema: &str, args: &str) -> Option<Option<String>> {
        let validator = self.validator.as_ref()?;
        if self.failure.borrow().is_some() {
            return None;
        }
        let out = self.settle(validator.call2(&JsValue::NULL, &schema.into(), &args.into()))?;
        Some(out.as_string())
    }

    fn fail(&self, error: agentwire::Error) {
        self.failure
            .borrow_mut()
            .get_or_insert_with(|| error_value(&error));
    }
}

/// The raw arguments of every export. The main input arrives as a string or bytes, never as
/// a `JsValue`: a call that traps would keep a `JsValue` argument's slot in the externref
/// table for good.
#[derive(Debug)]
struct Args<'a> {
    session: f64,
    text_in: Option<String>,
    bytes_in: Option<Vec<u8>>,
    ops: &'a [u32],
    doubles: &'a [f64],
    text: &'a str,
    #[cfg_attr(not(feature = "gateway"), allow(dead_code))]
    counter: Option<Function>,
    #[cfg_attr(not(feature = "gateway"), allow(dead_code))]
    validator: Option<Function>,
}

/// Runs `f` over the call's arguments; any failure a callback kept wins over the result.
fn with_call<T>(
    args: Args<'_>,
    f: &mut dyn FnMut(&mut Call<'_>) -> agentwire::Result<T>,
) -> Result<T, JsValue> {
    let main = match (&args.text_in, &args.bytes_in) {
        (Some(text), _) => Main::Text(text),
        (None, Some(bytes)) => Main::Bytes(bytes),
        (None, None) => Main::None,
    };
    let hooks = (args.counter.is_some() || args.validator.is_some()).then(|| WasmHooks {
        counter: args.counter,
        validator: args.validator,
        failure: RefCell::new(None),
    });
    let hooks_ref = hooks.as_ref().map(|h| h as &dyn Hooks);
    let session = Session::from_f64(args.session);
    let mut call = Call::new(main, args.ops, args.doubles, args.text, hooks_ref, session);
    let result = f(&mut call);
    if let Some(failure) = hooks.and_then(|h| h.failure.into_inner()) {
        return Err(failure);
    }
    result.map_err(|e| error_value(&e))
}

std::thread_local! {
    /// The words of the last value result; JS reads them from memory (`tapePointer`,
    /// `tapeLength`) before its next call.
    static TAPE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Where the last value result's words are in memory (a `u32` index into it).
#[wasm_bindgen(js_name = tapePointer)]
pub fn tape_pointer() -> u32 {
    TAPE.with(|tape| tape.borrow().as_ptr() as usize as u32)
}

/// How many words the last value result has.
#[wasm_bindgen(js_name = tapeLength)]
pub fn tape_length() -> u32 {
    TAPE.with(|tape| tape.borrow().len() as u32)
}

/// An output as a JS value; a value result's words stay in memory, its side string is
/// returned. Nothing here takes a `JsValue` argument: a call that traps would keep its slot in
/// the externref table for good.
fn js_value(out: Out) -> JsValue {
    match out {
        Out::String(s) => s.into(),
        Out::Tape(tape) => {
            let old = TAPE.with(|t| core::mem::replace(&mut *t.borrow_mut(), tape.words));
            agentwire_bindings::transfer::to_js::recycle(old, String::new());
            tape.side.into()
        }
        Out::Bytes(bytes) => Uint8Array::from(&bytes[..]).into(),
        Out::Undefined => JsValue::UNDEFINED,
        Out::Number(n) => n.into(),
        Out::Boolean(b) => b.into(),
    }
}

/// Calls the function `id` of the export table.
#[wasm_bindgen(js_name = call)]
#[allow(clippy::too_many_arguments)]
pub fn call(
    id: u32,
    session: f64,
    text_in: Option<String>,
    bytes_in: Option<Vec<u8>>,
    ops: &[u32],
    doubles: &[f64],
    text: &str,
    counter: Option<Function>,
    validator: Option<Function>,
) -> JsValue {
    let args = Args {
        session,
        text_in,
        bytes_in,
        ops,
        doubles,
        text,
        counter,
        validator,
    };
    settle(with_call(args, &mut |call| run_function(id, call)))
}

/// The output, or the error as a value: the JS layer throws an `Error` it is given. (Returning
/// a `Result` would cost every module wasm-bindgen's multi-value shims.)
fn settle(result: Result<Out, JsValue>) -> JsValue {
    match result {
        Ok(out) => js_value(out),
        Err(error) => error,
    }
}

/// An instance of a class of the export table: empty until `init` runs a constructor.
#[wasm_bindgen(js_name = Instance)]
pub struct Instance(Option<State>);

impl core::fmt::Debug for Instance {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Instance")
    }
}

#[wasm_bindgen(js_class = Instance)]
impl Instance {
    /// An empty instance.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Instance {
        Instance(None)
    }

    /// Runs the constructor `id`: undefined, or the error.
    #[allow(clippy::too_many_arguments)]
    pub fn init(
        &mut self,
        id: u32,
        session: f64,
        text_in: Option<String>,
        bytes_in: Option<Vec<u8>>,
        ops: &[u32],
        doubles: &[f64],
        text: &str,
    ) -> JsValue {
        let args = Args {
            session,
            text_in,
            bytes_in,
            ops,
            doubles,
            text,
            counter: None,
            validator: None,
        };
        match with_call(args, &mut |call| run_constructor(id, call)) {
            Ok(state) => {
                self.0 = Some(state);
                JsValue::UNDEFINED
            }
            Err(error) => error,
        }
    }

    /// Calls the method `id` on this instance.
    #[wasm_bindgen(js_name = call)]
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        id: u32,
        session: f64,
        text_in: Option<String>,
        bytes_in: Option<Vec<u8>>,
        ops: &[u32],
        doubles: &[f64],
        text: &str,
        counter: Option<Function>,
        validator: Option<Function>,
    ) -> JsValue {
        let args = Args {
            session,
            text_in,
            bytes_in,
            ops,
            doubles,
            text,
            counter,
            validator,
        };
        settle(with_call(args, &mut |call| {
            run_method(id, self.0.as_deref_mut(), call)
        }))
    }
}
