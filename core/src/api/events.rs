//! Events over JSON text (in progress).
