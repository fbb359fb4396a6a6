//! The Node addon: registers the export table of `agentwire-bindings` as napi's `call` and
//! `Instance`, and converts arguments, results and errors. Every export's body, the error's
//! properties ([`agentwire_bindings::js_error`]) and the shapes live in `agentwire-bindings`.
//!
//! The raw Node-API calls live here and nowhere else: reading a JS string as UTF-8 in one pass
//! (napi-rs asks for the UTF-8 length first, which is a second pass over the string), borrowing
//! a `Uint8Array`, calling the caller's JS callbacks, and throwing an `Error`.
#![allow(unsafe_code)]

use std::cell::Cell as StdCell;
use std::ffi::c_void;
use std::ptr;

use napi::bindgen_prelude::{ToNapiValue, Uint8Array, Uint32Array, Uint32ArraySlice, Unknown};
use napi::{Env, JsValue, Status, ValueType, sys};
use napi_derive::napi;

use agentwire_bindings::call::{
    Call, Hooks, Main, Out, Session, State, run_constructor, run_function, run_method,
};
use agentwire_bindings::js_error::{self, Property};

// Calls build many small values; mimalloc halves the time glibc malloc takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Raw = sys::napi_value;

fn check(status: sys::napi_status) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(
            Status::from(status),
            "Node-API call failed",
        ))
    }
}

/// A JS string read as UTF-8 (lone surrogates become U+FFFD, as V8 writes them).
fn utf8_of(env: sys::napi_env, value: Raw) -> napi::Result<String> {
    let mut units = 0usize;
    // SAFETY: `value` is a string (checked by the caller); a null buffer asks for the length,
    // which V8 knows without a pass over the string.
    check(unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut units) })?;
    // A UTF-16 unit is at most 3 UTF-8 bytes (a pair, 2 units, is 4); +1 for V8's NUL.
    let capacity = units * 3 + 1;
    let mut buf: Vec<u8> = Vec::with_capacity(capacity);
    let mut written = 0usize;
    // SAFETY: `buf` has `capacity` writable bytes; V8 writes at most that many and reports
    // how many it wrote (without the NUL).
    check(unsafe {
        sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), capacity, &mut written)
    })?;
    // SAFETY: V8 initialised `written` bytes.
    unsafe { buf.set_len(written) };
    // V8 writes valid UTF-8 (it replaces lone surrogates); checked rather than trusted.
    String::from_utf8(buf).map_err(|_| napi::Error::from_reason("V8 wrote invalid UTF-8"))
}

/// The bytes of a `Uint8Array` or `Buffer`, borrowed for the call; `None` for anything else.
fn bytes_of<'a>(env: sys::napi_env, value: Raw) -> napi::Result<Option<&'a [u8]>> {
    let mut is_typed_array = false;
    // SAFETY: a query on a live value.
    check(unsafe { sys::napi_is_typedarray(env, value, &mut is_typed_array) })?;
    if !is_typed_array {
        return Ok(None);
    }
    elements_of(env, value, sys::TypedarrayType::uint8_array)
}

/// The elements of a typed array argument, or an empty slice for `undefined` (the JS side
/// leaves out an empty tape region: two fewer typed-array reads per call); an error for
/// anything else.
fn tape_region<'a, T>(
    env: sys::napi_env,
    value: Unknown<'a>,
    kind: sys::napi_typedarray_type,
    name: &str,
) -> napi::Result<&'a [T]> {
    if value.get_type()? == ValueType::Undefined {
        return Ok(&[]);
    }
    elements_of(env, value.raw(), kind)?
        .ok_or_else(|| napi::Error::new(Status::InvalidArg, format!("{name}: wrong typed array")))
}

/// The elements of `value`, a typed array, borrowed for the call; `None` unless its element
/// type is `kind` (of which `T` is the Rust type).
fn elements_of<'a, T>(
    env: sys::napi_env,
    value: Raw,
    kind: sys::napi_typedarray_type,
) -> napi::Result<Option<&'a [T]>> {
    let (mut actual, mut length, mut offset) = (0, 0usize, 0usize);
    let mut data: *mut c_void = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    // SAFETY: `value` is a typed array (checked by the caller, or napi reports an error).
    check(unsafe {
        sys::napi_get_typedarray_info(
            env,
            value,
            &mut actual,
            &mut length,
            &mut data,
            &mut buffer,
            &mut offset,
        )
    })?;
    if actual != kind {
        return Ok(None);
    }
    if length == 0 || data.is_null() {
        return Ok(Some(&[]));
    }
    // SAFETY: the array is an argument, alive for the call, `length` elements of `kind` (so
    // aligned for `T`); no JS runs that could detach or write it before the call has read it.
    Ok(Some(unsafe {
        std::slice::from_raw_parts(data.cast::<T>(), length)
    }))
}

fn string_value(env: sys::napi_env, s: &str) -> napi::Result<Raw> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid buffer of `len` bytes. Latin-1 is exact for ASCII and is V8's one-byte
    // copy, the fastest way in.
    if s.is_ascii() {
        check(unsafe {
            sys::napi_create_string_latin1(env, s.as_ptr().cast(), s.len() as isize, &mut v)
        })?;
    } else {
        check(unsafe {
            sys::napi_create_string_utf8(env, s.as_ptr().cast(), s.len() as isize, &mut v)
        })?;
    }
    Ok(v)
}

fn number_or_null(env: sys::napi_env, n: Option<u64>) -> napi::Result<Raw> {
    let mut v = ptr::null_mut();
    // SAFETY: creating a value in a live env.
    match n {
        Some(n) => check(unsafe { sys::napi_create_double(env, n as f64, &mut v) })?,
        None => check(unsafe { sys::napi_get_null(env, &mut v) })?,
    }
    Ok(v)
}

/// The JS `Error` for `error`, with the properties of [`js_error::properties`].
fn error_object(env: sys::napi_env, error: &agentwire::Error) -> napi::Result<Raw> {
    let message = string_value(env, error.message())?;
    let mut object = ptr::null_mut();
    // SAFETY: creating a value in a live env.
    check(unsafe { sys::napi_create_error(env, ptr::null_mut(), message, &mut object) })?;
    for (name, property) in js_error::properties(error) {
        let value = match property {
            Property::Text(text) => string_value(env, text)?,
            Property::Position(n) => number_or_null(env, n)?,
        };
        let key = string_value(env, name)?;
        // SAFETY: `object` is an object created in `env`.
        check(unsafe { sys::napi_set_property(env, object, key, value) })?;
    }
    Ok(object)
}

/// Throws `value`; the returned error tells napi-rs an exception is already pending.
fn throw_value(env: sys::napi_env, value: Raw) -> napi::Error {
    // SAFETY: throwing a live value.
    match check(unsafe { sys::napi_throw(env, value) }) {
        Ok(()) => napi::Error::new(Status::PendingException, "agentwire error thrown"),
        Err(e) => e,
    }
}

fn throw(env: sys::napi_env, error: &agentwire::Error) -> napi::Error {
    match error_object(env, error) {
        Ok(object) => throw_value(env, object),
        // Could not build the object (the env is tearing down): napi-rs throws this instead.
        Err(_) => napi::Error::from_reason(format!("{}: {}", error.code(), error.message())),
    }
}

/// The caller's `{counter, validator}` functions.
struct NodeHooks {
    env: sys::napi_env,
    counter: Option<Raw>,
    validator: Option<Raw>,
    failure: StdCell<Option<Raw>>,
}

impl NodeHooks {
    /// The hooks of a call: `None` when it passed neither function.
    fn new(
        env: sys::napi_env,
        counter: Option<Raw>,
        validator: Option<Raw>,
    ) -> napi::Result<Option<NodeHooks>> {
        let function = |v: Option<Raw>| -> napi::Result<Option<Raw>> {
            let Some(v) = v else { return Ok(None) };
            let mut kind = 0;
            // SAFETY: a query on a live value.
            check(unsafe { sys::napi_typeof(env, v, &mut kind) })?;
            Ok((kind == sys::ValueType::napi_function).then_some(v))
        };
        let (counter, validator) = (function(counter)?, function(validator)?);
        if counter.is_none() && validator.is_none() {
            return Ok(None);
        }
        Ok(Some(NodeHooks {
            env,
            counter,
            validator,
            failure: StdCell::new(None),
        }))
    }

    /// Calls `function` with string arguments; `None` when a failure is kept (the exception
    /// this call threw becomes it).
    fn call(&self, function: Option<Raw>, args: &[&str]) -> Option<Raw> {
        let function = function?;
        if self.failure.get().is_some() {
            return None;
        }
        let env = self.env;
        let result = (|| -> napi::Result<Raw> {
            let mut argv = Vec::with_capacity(args.len());
            for arg in args {
                argv.push(string_value(env, arg)?);
            }
            let mut undefined = ptr::null_mut();
            let mut out = ptr::null_mut();
            // SAFETY: calling a live function with live arguments.
            check(unsafe { sys::napi_get_undefined(env, &mut undefined) })?;
            check(unsafe {
                sys::napi_call_function(
                    env,
                    undefined,
                    function,
                    argv.len(),
                    argv.as_ptr(),
                    &mut out,
                )
            })?;
            Ok(out)
        })();
        match result {
            Ok(out) => Some(out),
            Err(_) => {
                let mut exception = ptr::null_mut();
                // SAFETY: the failed call left its exception pending.
                let status = unsafe { sys::napi_get_and_clear_last_exception(env, &mut exception) };
                if status == sys::Status::napi_ok && !exception.is_null() {
                    self.failure.set(Some(exception));
                } else {
                    self.fail(agentwire::Error::new(
                        agentwire::ErrorKind::Internal,
                        "a callback failed",
                    ));
                }
                None
            }
        }
    }
}

impl Hooks for NodeHooks {
    fn has_counter(&self) -> bool {
        self.counter.is_some()
    }

    fn has_validator(&self) -> bool {
        self.validator.is_some()
    }

    fn count(&self, text: &str) -> Option<f64> {
        let out = self.call(self.counter, &[text])?;
        let mut n = f64::NAN;
        // SAFETY: reading a live value (a non-number leaves NaN).
        unsafe { sys::napi_get_value_double(self.env, out, &mut n) };
        Some(n)
    }

    fn validate(&self, schema: &str, args: &str) -> Option<Option<String>> {
        let out = self.call(self.validator, &[schema, args])?;
        let mut kind = 0;
        // SAFETY: a query on a live value.
        unsafe { sys::napi_typeof(self.env, out, &mut kind) };
        Some(
            (kind == sys::ValueType::napi_string)
                .then(|| utf8_of(self.env, out).ok())
                .flatten(),
        )
    }

    fn fail(&self, error: agentwire::Error) {
        if self.failure.get().is_none()
            && let Ok(object) = error_object(self.env, &error)
        {
            self.failure.set(Some(object));
        }
    }
}

/// The raw arguments of every call: the main input (a string or bytes), the argument tape
/// and the caller's callbacks.
#[allow(missing_debug_implementations)] // napi-rs values have no Debug
pub struct Args<'e> {
    session: f64,
    text_in: Unknown<'e>,
    bytes_in: Unknown<'e>,
    ops: Unknown<'e>,
    doubles: Unknown<'e>,
    text: Unknown<'e>,
    counter: Option<Unknown<'e>>,
    validator: Option<Unknown<'e>>,
}

/// Runs `f` over the call's arguments; any failure a callback kept wins over the result.
fn with_call<T>(
    env: &Env,
    args: Args<'_>,
    f: &mut dyn FnMut(&mut Call<'_>) -> agentwire::Result<T>,
) -> napi::Result<T> {
    let raw = env.raw();
    let main_text;
    let main = if args.text_in.get_type()? == ValueType::String {
        main_text = utf8_of(raw, args.text_in.raw())?;
        Main::Text(&main_text)
    } else {
        match bytes_of(raw, args.bytes_in.raw())? {
            Some(bytes) => Main::Bytes(bytes),
            None => Main::None,
        }
    };
    let ops = tape_region(raw, args.ops, sys::TypedarrayType::uint32_array, "ops")?;
    let doubles = tape_region(
        raw,
        args.doubles,
        sys::TypedarrayType::float64_array,
        "doubles",
    )?;
    let text = match args.text.get_type()? {
        ValueType::String => utf8_of(raw, args.text.raw())?,
        _ => String::new(),
    };
    let hooks = NodeHooks::new(
        raw,
        args.counter.map(|f| f.raw()),
        args.validator.map(|f| f.raw()),
    )?;
    let hooks_ref = hooks.as_ref().map(|h| h as &dyn Hooks);
    let session = Session::from_f64(args.session);
    let mut call = Call::new(main, ops, doubles, &text, hooks_ref, session);
    let result = f(&mut call);
    if let Some(failure) = hooks.as_ref().and_then(|h| h.failure.get()) {
        return Err(throw_value(raw, failure));
    }
    result.map_err(|e| throw(raw, &e))
}

/// An output as a JS value; a value result goes into `scratch` when it fits (the side string
/// is returned), else `[side, words]`.
fn js_value(env: sys::napi_env, out: Out, scratch: &mut [u32]) -> napi::Result<Raw> {
    let mut v = ptr::null_mut();
    // SAFETY (every block below): creating values in a live env from owned data.
    match out {
        Out::String(s) => return string_value(env, &s),
        Out::Tape(tape) => {
            let side = string_value(env, &tape.side)?;
            if let Some(dst) = scratch.get_mut(..tape.words.len()) {
                dst.copy_from_slice(&tape.words);
                agentwire_bindings::transfer::to_js::recycle(tape.words, tape.side);
                return Ok(side);
            }
            let words = unsafe { ToNapiValue::to_napi_value(env, Uint32Array::new(tape.words))? };
            check(unsafe { sys::napi_create_array_with_length(env, 2, &mut v) })?;
            check(unsafe { sys::napi_set_element(env, v, 0, side) })?;
            check(unsafe { sys::napi_set_element(env, v, 1, words) })?;
        }
        Out::Bytes(bytes) => {
            return unsafe { ToNapiValue::to_napi_value(env, Uint8Array::new(bytes)) };
        }
        Out::Undefined => check(unsafe { sys::napi_get_undefined(env, &mut v) })?,
        Out::Number(n) => check(unsafe { sys::napi_create_uint32(env, n, &mut v) })?,
        Out::Boolean(b) => check(unsafe { sys::napi_get_boolean(env, b, &mut v) })?,
    }
    Ok(v)
}

fn unknown(env: &Env, value: Raw) -> Unknown<'_> {
    // SAFETY: `value` was just created in `env`.
    unsafe { Unknown::from_raw_unchecked(env.raw(), value) }
}

/// Calls the function `id` of the export table.
#[napi(js_name = "call", catch_unwind)]
#[allow(clippy::too_many_arguments)]
pub fn call<'e>(
    env: &'e Env,
    id: u32,
    session: f64,
    text_in: Unknown<'e>,
    bytes_in: Unknown<'e>,
    ops: Unknown<'e>,
    doubles: Unknown<'e>,
    text: Unknown<'e>,
    mut scratch: Uint32ArraySlice<'e>,
    counter: Unknown<'e>,
    validator: Unknown<'e>,
) -> napi::Result<Unknown<'e>> {
    let args = Args {
        session,
        text_in,
        bytes_in,
        ops,
        doubles,
        text,
        counter: Some(counter),
        validator: Some(validator),
    };
    let out = with_call(env, args, &mut |call| run_function(id, call))?;
    // SAFETY: no JS runs until this returns, so nothing else reads or writes the scratch words.
    let value = js_value(env.raw(), out, unsafe { scratch.as_mut() })?;
    Ok(unknown(env, value))
}

/// An instance of a class of the export table: empty until `init` runs a constructor, and
/// again after `free()`.
#[napi(js_name = "Instance")]
pub struct Instance(Option<State>);

impl core::fmt::Debug for Instance {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Instance")
    }
}

#[napi]
impl Instance {
    /// An empty instance.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Instance {
        Instance(None)
    }

    /// Runs the constructor `id`.
    #[napi(catch_unwind)]
    #[allow(clippy::too_many_arguments)]
    pub fn init<'e>(
        &mut self,
        env: &'e Env,
        id: u32,
        session: f64,
        text_in: Unknown<'e>,
        bytes_in: Unknown<'e>,
        ops: Unknown<'e>,
        doubles: Unknown<'e>,
        text: Unknown<'e>,
    ) -> napi::Result<()> {
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
        self.0 = Some(with_call(env, args, &mut |call| run_constructor(id, call))?);
        Ok(())
    }

    /// Calls the method `id` on this instance.
    #[napi(js_name = "call", catch_unwind)]
    #[allow(clippy::too_many_arguments)]
    pub fn call<'e>(
        &mut self,
        env: &'e Env,
        id: u32,
        session: f64,
        text_in: Unknown<'e>,
        bytes_in: Unknown<'e>,
        ops: Unknown<'e>,
        doubles: Unknown<'e>,
        text: Unknown<'e>,
        mut scratch: Uint32ArraySlice<'e>,
        counter: Unknown<'e>,
        validator: Unknown<'e>,
    ) -> napi::Result<Unknown<'e>> {
        let args = Args {
            session,
            text_in,
            bytes_in,
            ops,
            doubles,
            text,
            counter: Some(counter),
            validator: Some(validator),
        };
        let out = with_call(env, args, &mut |call| {
            run_method(id, self.0.as_deref_mut(), call)
        })?;
        // SAFETY: as in `call`.
        let value = js_value(env.raw(), out, unsafe { scratch.as_mut() })?;
        Ok(unknown(env, value))
    }

    /// Drops the state now (the object stays, and fails when used again).
    #[napi]
    pub fn free(&mut self) {
        self.0 = None;
    }
}
