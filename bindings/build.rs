//! The Node addon links against the Node-API symbols of the host process.

fn main() {
    #[cfg(feature = "node")]
    napi_build::setup();
}
