//! THE export table: every function and class JavaScript can call, in every runtime. The
//! native addon (bindings-node) and each wasm module (bindings-wasm with its area's feature)
//! dispatch through this one list ([`crate::exports!`](crate::exports)), so they cannot
//! drift; `exportTable` gives it to the JS layer at run time (name, kind, and the id is the
//! position). A function is named by its JS path (`gcf.keyed.packRoot`), a class method by
//! its class (`GcxEncoder.writeRow`).
//!
//! Areas, named as their wasm modules: `core` (GCX1, GCF v1.1, GCB1, codecs: the default
//! module), `gcf` (GCF v3, and compaction), `gateway`, `events`, `toon`, `schema` and `tokens` (the
//! counter, which loads a vocabulary at run time, and compaction with exact counts). The
//! first four exports are in every module, `exportTable` and `version` first (ids 0 and 1).

crate::exports! {
    functions {
        fn "exportTable" -> crate::call::Tape = crate::js::common::export_table;
        fn "version" -> String = crate::js::common::version;
        fn "errorCodes" -> crate::call::Tape = crate::js::common::error_codes;
        // Not API: panics on purpose (npm/test/hostile.test.mjs).
        fn "__agentwireInternalPanicForTests" -> () = crate::js::common::internal_panic_for_tests;

        #[cfg(feature = "core")]
        fn "gcx.escape" -> String = crate::js::gcx::escape;
        #[cfg(feature = "core")]
        fn "gcx.unescape" -> String = crate::js::gcx::unescape;
        #[cfg(feature = "core")]
        fn "gcx.cellText" -> String = crate::js::gcx::cell_text;
        #[cfg(feature = "core")]
        fn "gcx.encode" -> String = crate::js::gcx::encode;
        #[cfg(feature = "core")]
        fn "gcx.encodeGeneric" -> String = crate::js::gcx::encode_generic;
        #[cfg(feature = "core")]
        fn "gcx.encodeTool" -> String = crate::js::gcx::encode_tool;
        #[cfg(feature = "core")]
        fn "gcx.encodeToolDetailed" -> crate::call::Tape = crate::js::gcx::encode_tool_detailed;
        #[cfg(feature = "core")]
        fn "gcx.decode" -> crate::call::Tape = crate::js::gcx::decode;
        #[cfg(feature = "core")]
        fn "gcx.layouts" -> crate::call::Tape = crate::js::gcx::layouts;
        #[cfg(feature = "core")]
        fn "gcx.parseFormat" -> String = crate::js::gcx::parse_format;
        #[cfg(feature = "core")]
        fn "gcx.encodeToolDefinitions" -> String = crate::js::gcx::encode_tool_definitions;
        #[cfg(feature = "core")]
        fn "gcx.decodeToolDefinitions" -> crate::call::Tape = crate::js::gcx::decode_tool_definitions;
        #[cfg(feature = "core")]
        fn "gcx.encodeToolRequest" -> String = crate::js::gcx::encode_tool_request;
        #[cfg(feature = "core")]
        fn "gcx.decodeToolRequest" -> crate::call::Tape = crate::js::gcx::decode_tool_request;
        #[cfg(feature = "core")]
        fn "gcx.encodeErrorEnvelope" -> String = crate::js::gcx::encode_error_envelope;
        #[cfg(feature = "core")]
        fn "gcx.decodeErrorEnvelope" -> crate::call::Tape = crate::js::gcx::decode_error_envelope;
        #[cfg(feature = "core")]
        fn "gcx.checkRequest" -> crate::call::Tape = crate::js::gcx::check_request;
        #[cfg(feature = "core")]
        fn "gcx.errorCodeConstants" -> crate::call::Tape = crate::js::gcx::error_code_constants;

        #[cfg(feature = "core")]
        fn "gcf.encode" -> String = crate::js::graph::encode;
        #[cfg(feature = "core")]
        fn "gcf.decode" -> crate::call::Tape = crate::js::graph::decode;
        #[cfg(feature = "core")]
        fn "gcf.decodeToJson" -> String = crate::js::graph::decode_to_json;
        #[cfg(feature = "core")]
        fn "gcf.encodeDelta" -> String = crate::js::graph::encode_delta;
        #[cfg(feature = "core")]
        fn "gcb.encode" -> crate::call::Bytes = crate::js::graph::gcb_encode;
        #[cfg(feature = "core")]
        fn "codecs.list" -> crate::call::Tape = crate::js::graph::codecs_list;
        #[cfg(feature = "core")]
        fn "codecs.encode" -> crate::call::Bytes = crate::js::graph::codec_encode;
        #[cfg(feature = "core")]
        fn "codecs.decode" -> crate::call::Tape = crate::js::graph::codec_decode;

        #[cfg(feature = "gcf")]
        fn "gcf.encodeGeneric" -> String = crate::js::gcf::encode_generic;
        #[cfg(feature = "gcf")]
        fn "gcf.encodeGenericGrouped" -> String = crate::js::gcf::encode_generic_grouped;
        #[cfg(feature = "gcf")]
        fn "gcf.decodeAny" -> crate::call::Tape = crate::js::gcf::decode;
        #[cfg(feature = "gcf")]
        fn "gcf.decodeAnyToJson" -> String = crate::js::gcf::decode_to_json;
        #[cfg(feature = "gcf")]
        fn "gcf.encodeGraph" -> String = crate::js::gcf::encode_graph;
        #[cfg(feature = "gcf")]
        fn "gcf.encodeGraphDelta" -> String = crate::js::gcf::encode_graph_delta;
        #[cfg(feature = "gcf")]
        fn "gcf.graphPackRoot" -> crate::call::Tape = crate::js::gcf::graph_pack_root;
        #[cfg(feature = "gcf")]
        fn "gcf.applyGraphDelta" -> crate::call::Tape = crate::js::gcf::apply_graph_delta;
        #[cfg(feature = "gcf")]
        fn "gcf.keyed.packRoot" -> crate::call::Tape = crate::js::gcf::keyed_pack_root;
        #[cfg(feature = "gcf")]
        fn "gcf.keyed.encodeFull" -> String = crate::js::gcf::keyed_encode_full;
        #[cfg(feature = "gcf")]
        fn "gcf.keyed.encodeDelta" -> String = crate::js::gcf::keyed_encode_delta;
        #[cfg(feature = "gcf")]
        fn "gcf.keyed.applyDelta" -> crate::call::Tape = crate::js::gcf::keyed_apply_delta;

        #[cfg(feature = "gateway")]
        fn "gateway.toolIdDerivation" -> crate::call::Tape = crate::js::gateway::tool_id_derivation;
        #[cfg(feature = "gateway")]
        fn "gateway.toolId" -> crate::call::Tape = crate::js::gateway::tool_id;
        #[cfg(feature = "gateway")]
        fn "gateway.parseToolId" -> crate::call::Tape = crate::js::gateway::parse_tool_id;
        #[cfg(feature = "gateway")]
        fn "gateway.formatToolId" -> String = crate::js::gateway::format_tool_id;
        #[cfg(feature = "gateway")]
        fn "gateway.card" -> crate::call::Tape = crate::js::gateway::card;
        #[cfg(feature = "gateway")]
        fn "gateway.truncate" -> crate::call::Tape = crate::js::gateway::truncate;
        #[cfg(feature = "gateway")]
        fn "gateway.browseCards" -> crate::call::Tape = crate::js::gateway::browse_cards;
        #[cfg(feature = "gateway")]
        fn "gateway.parsePath" -> crate::call::Tape = crate::js::gateway::parse_path;

        #[cfg(feature = "events")]
        fn "events.parse" -> crate::call::Tape = crate::js::events::parse;
        #[cfg(feature = "events")]
        fn "events.accumulate" -> crate::call::Tape = crate::js::events::accumulate;
        #[cfg(feature = "events")]
        fn "events.serialize" -> String = crate::js::events::serialize;
        #[cfg(feature = "events")]
        fn "events.mock" -> String = crate::js::events::mock;
        #[cfg(feature = "events")]
        fn "events.fromSse" -> crate::call::Tape = crate::js::events::from_sse;
        #[cfg(feature = "events")]
        fn "events.parseToolSpec" -> crate::call::Tape = crate::js::events::parse_tool_spec;
        #[cfg(feature = "events")]
        fn "events.functionTool" -> crate::call::Tape = crate::js::events::function_tool;
        #[cfg(feature = "events")]
        fn "events.followUp" -> crate::call::Tape = crate::js::events::follow_up;

        #[cfg(feature = "schema")]
        fn "schema.check" -> crate::call::Tape = crate::js::schema::check;
        #[cfg(feature = "schema")]
        fn "schema.validator" -> String = crate::js::schema::check_text;

        #[cfg(feature = "tokens")]
        fn "tokens.load" -> String = crate::js::tokens::load;
        #[cfg(feature = "tokens")]
        fn "tokens.loaded" -> crate::call::Tape = crate::js::tokens::loaded;
        #[cfg(feature = "tokens")]
        fn "tokens.count" -> u32 = crate::js::tokens::count;
        #[cfg(feature = "tokens")]
        fn "tokens.countWithin" -> crate::call::Tape = crate::js::tokens::count_within;
        #[cfg(feature = "tokens")]
        fn "tokens.encode" -> crate::call::Bytes = crate::js::tokens::encode;
        #[cfg(feature = "tokens")]
        fn "tokens.decodeBytes" -> crate::call::Bytes = crate::js::tokens::decode;

        #[cfg(feature = "toon")]
        fn "toon.encode" -> String = crate::js::toon::encode;
        #[cfg(feature = "toon")]
        fn "toon.decode" -> crate::call::Tape = crate::js::toon::decode;

        #[cfg(any(feature = "gcf", feature = "tokens"))]
        fn "compact.json" -> crate::call::Tape = crate::js::compact::json;
        #[cfg(any(feature = "gcf", feature = "tokens"))]
        fn "compact.decode" -> crate::call::Tape = crate::js::compact::decode;
    }
    classes {
        #[cfg(feature = "core")]
        class "GcxEncoder"(crate::shapes::gcx::GcxStreamEncoder) {
            new = crate::js::gcx::encoder_new;
            fn "beginSection" -> () = crate::js::gcx::encoder_begin_section;
            fn "writeRow" -> () = crate::js::gcx::encoder_write_row;
            fn "writeComment" -> () = crate::js::gcx::encoder_write_comment;
            fn "take" -> String = crate::js::gcx::encoder_take;
        }
        #[cfg(feature = "core")]
        class "GcxDecoder"(crate::shapes::gcx::GcxStreamDecoder) {
            new = crate::js::gcx::decoder_new;
            fn "push" -> () = crate::js::gcx::decoder_push;
            fn "finish" -> () = crate::js::gcx::decoder_finish;
            fn "next" -> crate::call::Tape = crate::js::gcx::decoder_next;
        }
        #[cfg(feature = "core")]
        class "GcfSession"(agentwire::gcf::v1::Session) {
            new = crate::js::graph::session_new;
            fn "encode" -> String = crate::js::graph::session_encode;
            fn "size" -> u32 = crate::js::graph::session_size;
            fn "reset" -> () = crate::js::graph::session_reset;
        }
        #[cfg(feature = "gcf")]
        class "Gcf3GraphSession"(agentwire::gcf::v3::GraphSession) {
            new = crate::js::gcf::graph_session_new;
            fn "encode" -> String = crate::js::gcf::graph_session_encode;
            fn "size" -> u32 = crate::js::gcf::graph_session_size;
            fn "reset" -> () = crate::js::gcf::graph_session_reset;
        }
        #[cfg(feature = "gcf")]
        class "Gcf3KeyedSession"(crate::shapes::gcf::GcfV3KeyedSession) {
            new = crate::js::gcf::keyed_session_new;
            fn "emit" -> crate::call::Tape = crate::js::gcf::keyed_session_emit;
        }
        #[cfg(feature = "gateway")]
        class "GatewaySession"(crate::shapes::gateway::GatewaySession) {
            new = crate::js::gateway::session_new;
            fn "register" -> crate::call::Tape = crate::js::gateway::session_register;
            fn "browseRanked" -> crate::call::Tape = crate::js::gateway::session_browse_ranked;
            fn "dispatch" -> crate::call::Tape = crate::js::gateway::session_dispatch;
            fn "seen" -> crate::call::Tape = crate::js::gateway::session_seen;
            fn "reset" -> () = crate::js::gateway::session_reset;
        }
        #[cfg(feature = "events")]
        class "EventsDecoder"(crate::shapes::events::EventsDecoder) {
            new = crate::js::events::decoder_new;
            fn "push" -> crate::call::Tape = crate::js::events::decoder_push;
            fn "finish" -> crate::call::Tape = crate::js::events::decoder_finish;
        }
    }
}
