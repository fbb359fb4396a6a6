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

// talc in place of the standard library's dlmalloc: as fast on our calls, and 3 KB smaller
// gzipped, which the core module's size budget needs (docs/js-boundary.md). A wasm module here
// runs on one thread.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

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

/// The caller's `{counter, validator}` functions (the gateway, and compaction's counter in the
/// gcf and tokens modules).
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
    main: Main<'a>,
    ops: &'a [u32],
    doubles: &'a [f64],
    text: &'a str,
    counter: Option<Function>,
    validator: Option<Function>,
}

/// Runs `f` over the call's arguments; any failure a callback kept wins over the result.
fn with_call<T>(
    args: Args<'_>,
    f: &mut dyn FnMut(&mut Call<'_>) -> agentwire::Result<T>,
) -> Result<T, JsValue> {
    let main = args.main;
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
    /// The argument tape's ops, written by JS into memory (`argOps`) before a call.
    static ARG_OPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    /// The argument tape's doubles (`argDoubles`).
    static ARG_DOUBLES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// The main input (UTF-8 or bytes) and then the argument text (UTF-8), written by JS with
    /// `TextEncoder.encodeInto` straight into memory (`argBytes`): no copy in JS glue.
    static ARG_BYTES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Past this many bytes an argument buffer goes back to the allocator after the call.
const KEEP_ARG_BYTES: usize = 4 << 20;

/// Where `len` items of `buffer` start in memory, the buffer grown to hold them (what it held
/// before is kept).
fn reserve<T: Copy + Default>(
    buffer: &'static std::thread::LocalKey<RefCell<Vec<T>>>,
    len: u32,
) -> u32 {
    buffer.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < len as usize {
            b.resize(len as usize, T::default());
        }
        b.as_ptr() as usize as u32
    })
}

/// Where JS writes the next call's `len` ops (u32 words).
#[wasm_bindgen(js_name = argOps)]
pub fn arg_ops(len: u32) -> u32 {
    reserve(&ARG_OPS, len)
}

/// Where JS writes the next call's `len` doubles.
#[wasm_bindgen(js_name = argDoubles)]
pub fn arg_doubles(len: u32) -> u32 {
    reserve(&ARG_DOUBLES, len)
}

/// Where JS writes the next call's main input and argument text: room for `len` bytes, the
/// bytes written before kept (JS grows it when a string's UTF-8 is longer than guessed).
#[wasm_bindgen(js_name = argBytes)]
pub fn arg_bytes(len: u32) -> u32 {
    reserve(&ARG_BYTES, len)
}

/// What the main input of a call is (`main` of [`call`]).
const MAIN_NONE: u32 = 0;
const MAIN_TEXT: u32 = 1;

/// The error of argument buffers that do not hold what JS said (not from our JS).
fn bad_buffers() -> JsValue {
    error_value(&agentwire_bindings::call::invalid(
        "the argument buffers do not hold the call's arguments",
    ))
}

/// `len` items of `buffer` from `from`.
fn slice<T>(buffer: &[T], from: usize, len: u32) -> Result<&[T], JsValue> {
    buffer
        .get(from..from.saturating_add(len as usize))
        .ok_or_else(bad_buffers)
}

/// Bytes JS wrote with `TextEncoder.encodeInto` (always UTF-8) as text.
fn utf8(bytes: &[u8]) -> Result<&str, JsValue> {
    core::str::from_utf8(bytes).map_err(|_| bad_buffers())
}

/// Runs `f` over the arguments JS wrote into the argument buffers: the main input (`main`:
/// 0 none, 1 text, 2 bytes) is the first `main_len` bytes, the argument text the `text_len`
/// after it. The buffers are taken out for the call (a call made inside it gets buffers of its
/// own) and put back after.
fn with_buffers<T>(
    session: f64,
    (main, main_len, ops_len, doubles_len, text_len): (u32, u32, u32, u32, u32),
    counter: Option<Function>,
    validator: Option<Function>,
    f: &mut dyn FnMut(&mut Call<'_>) -> agentwire::Result<T>,
) -> Result<T, JsValue> {
    let ops = ARG_OPS.with(|b| core::mem::take(&mut *b.borrow_mut()));
    let doubles = ARG_DOUBLES.with(|b| core::mem::take(&mut *b.borrow_mut()));
    let bytes = ARG_BYTES.with(|b| core::mem::take(&mut *b.borrow_mut()));
    let result = (|| {
        let main_bytes = slice(&bytes, 0, main_len)?;
        let main = match main {
            MAIN_NONE => Main::None,
            MAIN_TEXT => Main::Text(utf8(main_bytes)?),
            _ => Main::Bytes(main_bytes),
        };
        let args = Args {
            session,
            main,
            ops: slice(&ops, 0, ops_len)?,
            doubles: slice(&doubles, 0, doubles_len)?,
            text: utf8(slice(&bytes, main_len as usize, text_len)?)?,
            counter,
            validator,
        };
        with_call(args, f)
    })();
    ARG_OPS.with(|b| *b.borrow_mut() = ops);
    ARG_DOUBLES.with(|b| *b.borrow_mut() = doubles);
    if bytes.capacity() <= KEEP_ARG_BYTES {
        ARG_BYTES.with(|b| *b.borrow_mut() = bytes);
    }
    result
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

/// Calls the function `id` of the export table on the arguments JS wrote into the argument
/// buffers (`argOps`, `argDoubles`, `argBytes`): `main` is 0 (none), 1 (text) or 2 (bytes),
/// its `main_len` bytes first, then `text_len` bytes of argument text.
#[wasm_bindgen(js_name = call)]
#[allow(clippy::too_many_arguments)]
pub fn call(
    id: u32,
    session: f64,
    main: u32,
    main_len: u32,
    ops_len: u32,
    doubles_len: u32,
    text_len: u32,
    counter: Option<Function>,
    validator: Option<Function>,
) -> JsValue {
    let lengths = (main, main_len, ops_len, doubles_len, text_len);
    settle(with_buffers(
        session,
        lengths,
        counter,
        validator,
        &mut |call| run_function(id, call),
    ))
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

    /// Runs the constructor `id` on the arguments in the argument buffers (as [`call`]):
    /// undefined, or the error.
    #[allow(clippy::too_many_arguments)]
    pub fn init(
        &mut self,
        id: u32,
        session: f64,
        main: u32,
        main_len: u32,
        ops_len: u32,
        doubles_len: u32,
        text_len: u32,
    ) -> JsValue {
        let lengths = (main, main_len, ops_len, doubles_len, text_len);
        match with_buffers(session, lengths, None, None, &mut |call| {
            run_constructor(id, call)
        }) {
            Ok(state) => {
                self.0 = Some(state);
                JsValue::UNDEFINED
            }
            Err(error) => error,
        }
    }

    /// Calls the method `id` on this instance (arguments as for [`call`]).
    #[wasm_bindgen(js_name = call)]
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        id: u32,
        session: f64,
        main: u32,
        main_len: u32,
        ops_len: u32,
        doubles_len: u32,
        text_len: u32,
        counter: Option<Function>,
        validator: Option<Function>,
    ) -> JsValue {
        let lengths = (main, main_len, ops_len, doubles_len, text_len);
        settle(with_buffers(
            session,
            lengths,
            counter,
            validator,
            &mut |call| run_method(id, self.0.as_deref_mut(), call),
        ))
    }
}
