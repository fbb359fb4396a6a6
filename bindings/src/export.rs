//! The export table macro: one list of functions and classes becomes [`crate::exports::ENTRIES`],
//! which the runtimes dispatch through. Each runtime exports the same three things (feature
//! `node`: napi; feature `wasm`: wasm-bindgen): `call(id, …)`, a class `Instance(classId, …)`
//! and its method `call(id, …)`, with the raw signature `(session, main, ops, doubles, text,
//! scratch, hooks)` of [`crate::call`]. So the native and wasm builds cannot drift, and a wasm module
//! pays for one export shim, not one per function.

/// ```text
/// exports! {
///     functions { fn "jsName" -> Output = crate::path::body; … }
///     classes {
///         class "JsName"(crate::path::State) {
///             new = crate::path::ctor;
///             fn "jsMethod" -> Output = crate::path::body;
///             …
///         }
///     }
/// }
/// ```
///
/// A body is `fn(&mut Call) -> agentwire::Result<Output>`, a constructor
/// `fn(&mut Call) -> Result<State>`, a method `fn(&mut State, &mut Call) -> Result<Output>`.
/// A function may carry `#[cfg(…)]`, a class must (the area it belongs to). The first two entries are
/// `exportTable` (id 0) and `version` (id 1), which the JS layer calls before it knows the rest.
#[macro_export]
macro_rules! exports {
    (
        functions {
            $( $(#[cfg($cfg:meta)])* fn $js:literal -> $out:ty = $body:path; )*
        }
        classes {
            $(
                #[cfg($ccfg:meta)] class $cjs:literal ($state:ty) {
                    new = $ctor:path;
                    $( fn $mjs:literal -> $mout:ty = $mbody:path; )*
                }
            )*
        }
    ) => {
        /// Every export of this build, in id order: functions, then for each class its
        /// constructor (`Class.new`) and its methods (`Class.method`).
        pub static ENTRIES: &[$crate::call::Entry] = &[
            $(
                $(#[cfg($cfg)])*
                $crate::call::Entry::function($js, <$out as $crate::call::Output>::KIND, |call| {
                    $body(call).map($crate::call::Out::from)
                }),
            )*
            $(
                #[cfg($ccfg)]
                $crate::call::Entry::constructor(concat!($cjs, ".new"), |call| {
                    $ctor(call).map(|state| ::std::boxed::Box::new(state) as $crate::call::State)
                }),
                $(
                    #[cfg($ccfg)]
                    $crate::call::Entry::method(
                        concat!($cjs, ".", $mjs),
                        <$mout as $crate::call::Output>::KIND,
                        |state, call| match state.downcast_mut::<$state>() {
                            Some(state) => $mbody(state, call).map($crate::call::Out::from),
                            None => Err($crate::call::wrong_class(concat!($cjs, ".", $mjs))),
                        },
                    ),
                )*
            )*
        ];
    };
}
