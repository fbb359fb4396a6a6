//! The Responses-API JSONL event protocol of `godex exec --json` (in progress).
