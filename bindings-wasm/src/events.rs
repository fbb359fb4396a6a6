//! Events (in progress).
