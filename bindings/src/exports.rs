//! THE export table: every function and class JavaScript can call, in every runtime. The
//! native addon (feature `node`) and each wasm module (feature `wasm` plus its area features)
//! dispatch through this one list ([`crate::exports!`](crate::exports)), so they cannot
//! drift; `exportTable` gives it to the JS layer at run time (name, kind, and the id is the
//! position).
//!
//! Areas: `formats` (GCX1, GCF v1.1, GCB1, codecs: the default wasm module), `gcf3`,
//! `gateway`, `events`, `schema` and `tokens` (`tokens-cl100k` / `tokens-o200k` in wasm,
//! one vocabulary per module). The first four exports are in every module, `exportTable` and
//! `version` first (ids 0 and 1).

crate::exports! {
    functions {
        fn "exportTable" -> crate::call::Tape = crate::js::common::export_table;
        fn "version" -> String = crate::js::common::version;
        fn "errorCodes" -> crate::call::Tape = crate::js::common::error_codes;
        // Not API: panics on purpose (npm/test/hostile.test.mjs).
        fn "__agentwireInternalPanicForTests" -> () = crate::js::common::internal_panic_for_tests;

        #[cfg(feature = "formats")]
        fn "gcxEscape" -> String = crate::js::gcx::escape;
        #[cfg(feature = "formats")]
        fn "gcxUnescape" -> String = crate::js::gcx::unescape;
        #[cfg(feature = "formats")]
        fn "gcxCellText" -> String = crate::js::gcx::cell_text;
        #[cfg(feature = "formats")]
        fn "gcxEncode" -> String = crate::js::gcx::encode;
        #[cfg(feature = "formats")]
        fn "gcxEncodeGeneric" -> String = crate::js::gcx::encode_generic;
        #[cfg(feature = "formats")]
        fn "gcxEncodeTool" -> String = crate::js::gcx::encode_tool;
        #[cfg(feature = "formats")]
        fn "gcxEncodeToolDetailed" -> crate::call::Tape = crate::js::gcx::encode_tool_detailed;
        #[cfg(feature = "formats")]
        fn "gcxDecode" -> crate::call::Tape = crate::js::gcx::decode;
        #[cfg(feature = "formats")]
        fn "gcxLayouts" -> crate::call::Tape = crate::js::gcx::layouts;
        #[cfg(feature = "formats")]
        fn "gcxParseFormat" -> String = crate::js::gcx::parse_format;
        #[cfg(feature = "formats")]
        fn "gcxEncodeToolDefinitions" -> String = crate::js::gcx::encode_tool_definitions;
        #[cfg(feature = "formats")]
        fn "gcxDecodeToolDefinitions" -> crate::call::Tape = crate::js::gcx::decode_tool_definitions;
        #[cfg(feature = "formats")]
        fn "gcxEncodeToolRequest" -> String = crate::js::gcx::encode_tool_request;
        #[cfg(feature = "formats")]
        fn "gcxDecodeToolRequest" -> crate::call::Tape = crate::js::gcx::decode_tool_request;
        #[cfg(feature = "formats")]
        fn "gcxEncodeErrorEnvelope" -> String = crate::js::gcx::encode_error_envelope;
        #[cfg(feature = "formats")]
        fn "gcxDecodeErrorEnvelope" -> crate::call::Tape = crate::js::gcx::decode_error_envelope;
        #[cfg(feature = "formats")]
        fn "gcxCheckRequest" -> crate::call::Tape = crate::js::gcx::check_request;
        #[cfg(feature = "formats")]
        fn "gcxErrorCodeConstants" -> crate::call::Tape = crate::js::gcx::error_code_constants;

        #[cfg(feature = "formats")]
        fn "gcfEncode" -> String = crate::js::graph::encode;
        #[cfg(feature = "formats")]
        fn "graphDecode" -> crate::call::Tape = crate::js::graph::decode;
        #[cfg(feature = "formats")]
        fn "graphDecodeToJson" -> String = crate::js::graph::decode_to_json;
        #[cfg(feature = "formats")]
        fn "gcfEncodeDelta" -> String = crate::js::graph::encode_delta;
        #[cfg(feature = "formats")]
        fn "gcbEncode" -> crate::call::Bytes = crate::js::graph::gcb_encode;
        #[cfg(feature = "formats")]
        fn "codecsList" -> crate::call::Tape = crate::js::graph::codecs_list;
        #[cfg(feature = "formats")]
        fn "codecEncode" -> crate::call::Bytes = crate::js::graph::codec_encode;
        #[cfg(feature = "formats")]
        fn "codecDecode" -> crate::call::Tape = crate::js::graph::codec_decode;

        #[cfg(feature = "gcf3")]
        fn "gcf3EncodeGeneric" -> String = crate::js::gcf3::encode_generic;
        #[cfg(feature = "gcf3")]
        fn "gcf3EncodeGenericGrouped" -> String = crate::js::gcf3::encode_generic_grouped;
        #[cfg(feature = "gcf3")]
        fn "gcf3Decode" -> crate::call::Tape = crate::js::gcf3::decode;
        #[cfg(feature = "gcf3")]
        fn "gcf3DecodeToJson" -> String = crate::js::gcf3::decode_to_json;
        #[cfg(feature = "gcf3")]
        fn "gcf3EncodeGraph" -> String = crate::js::gcf3::encode_graph;
        #[cfg(feature = "gcf3")]
        fn "gcf3EncodeGraphDelta" -> String = crate::js::gcf3::encode_graph_delta;
        #[cfg(feature = "gcf3")]
        fn "gcf3GraphPackRoot" -> crate::call::Tape = crate::js::gcf3::graph_pack_root;
        #[cfg(feature = "gcf3")]
        fn "gcf3ApplyGraphDelta" -> crate::call::Tape = crate::js::gcf3::apply_graph_delta;
        #[cfg(feature = "gcf3")]
        fn "gcf3KeyedPackRoot" -> crate::call::Tape = crate::js::gcf3::keyed_pack_root;
        #[cfg(feature = "gcf3")]
        fn "gcf3KeyedEncodeFull" -> String = crate::js::gcf3::keyed_encode_full;
        #[cfg(feature = "gcf3")]
        fn "gcf3KeyedEncodeDelta" -> String = crate::js::gcf3::keyed_encode_delta;
        #[cfg(feature = "gcf3")]
        fn "gcf3KeyedApplyDelta" -> crate::call::Tape = crate::js::gcf3::keyed_apply_delta;

        #[cfg(feature = "gateway")]
        fn "gatewayToolIdDerivation" -> crate::call::Tape = crate::js::gateway::tool_id_derivation;
        #[cfg(feature = "gateway")]
        fn "gatewayToolId" -> crate::call::Tape = crate::js::gateway::tool_id;
        #[cfg(feature = "gateway")]
        fn "gatewayParseToolId" -> crate::call::Tape = crate::js::gateway::parse_tool_id;
        #[cfg(feature = "gateway")]
        fn "gatewayFormatToolId" -> String = crate::js::gateway::format_tool_id;
        #[cfg(feature = "gateway")]
        fn "gatewayCard" -> crate::call::Tape = crate::js::gateway::card;
        #[cfg(feature = "gateway")]
        fn "gatewayTruncate" -> crate::call::Tape = crate::js::gateway::truncate;
        #[cfg(feature = "gateway")]
        fn "gatewayBrowseCards" -> crate::call::Tape = crate::js::gateway::browse_cards;
        #[cfg(feature = "gateway")]
        fn "gatewayParsePath" -> crate::call::Tape = crate::js::gateway::parse_path;

        #[cfg(feature = "events")]
        fn "eventsParse" -> crate::call::Tape = crate::js::events::parse;
        #[cfg(feature = "events")]
        fn "eventsAccumulate" -> crate::call::Tape = crate::js::events::accumulate;
        #[cfg(feature = "events")]
        fn "eventsSerialize" -> String = crate::js::events::serialize;
        #[cfg(feature = "events")]
        fn "eventsMock" -> String = crate::js::events::mock;
        #[cfg(feature = "events")]
        fn "eventsFromSse" -> crate::call::Tape = crate::js::events::from_sse;
        #[cfg(feature = "events")]
        fn "eventsParseToolSpec" -> crate::call::Tape = crate::js::events::parse_tool_spec;
        #[cfg(feature = "events")]
        fn "eventsFunctionTool" -> crate::call::Tape = crate::js::events::function_tool;
        #[cfg(feature = "events")]
        fn "eventsFollowUp" -> crate::call::Tape = crate::js::events::follow_up;

        #[cfg(feature = "schema")]
        fn "schemaCheck" -> crate::call::Tape = crate::js::schema::check;
        #[cfg(feature = "schema")]
        fn "schemaCheckText" -> String = crate::js::schema::check_text;

        #[cfg(any(feature = "tokens", feature = "tokens-cl100k", feature = "tokens-o200k"))]
        fn "tokensCount" -> u32 = crate::js::tokens::count;
    }
    classes {
        #[cfg(feature = "formats")]
        class "GcxEncoder"(crate::api::gcx::GcxStreamEncoder) {
            new = crate::js::gcx::encoder_new;
            fn "beginSection" -> () = crate::js::gcx::encoder_begin_section;
            fn "writeRow" -> () = crate::js::gcx::encoder_write_row;
            fn "writeComment" -> () = crate::js::gcx::encoder_write_comment;
            fn "take" -> String = crate::js::gcx::encoder_take;
        }
        #[cfg(feature = "formats")]
        class "GcxDecoder"(crate::api::gcx::GcxStreamDecoder) {
            new = crate::js::gcx::decoder_new;
            fn "push" -> () = crate::js::gcx::decoder_push;
            fn "finish" -> () = crate::js::gcx::decoder_finish;
            fn "next" -> crate::call::Tape = crate::js::gcx::decoder_next;
        }
        #[cfg(feature = "formats")]
        class "GcfSession"(agentwire::gcf::v1::Session) {
            new = crate::js::graph::session_new;
            fn "encode" -> String = crate::js::graph::session_encode;
            fn "size" -> u32 = crate::js::graph::session_size;
            fn "reset" -> () = crate::js::graph::session_reset;
        }
        #[cfg(feature = "gcf3")]
        class "Gcf3GraphSession"(agentwire::gcf::v3::GraphSession) {
            new = crate::js::gcf3::graph_session_new;
            fn "encode" -> String = crate::js::gcf3::graph_session_encode;
            fn "size" -> u32 = crate::js::gcf3::graph_session_size;
            fn "reset" -> () = crate::js::gcf3::graph_session_reset;
        }
        #[cfg(feature = "gcf3")]
        class "Gcf3KeyedSession"(crate::api::gcf3::GcfV3KeyedSession) {
            new = crate::js::gcf3::keyed_session_new;
            fn "emit" -> crate::call::Tape = crate::js::gcf3::keyed_session_emit;
        }
        #[cfg(feature = "gateway")]
        class "GatewaySession"(crate::api::gateway::GatewaySession) {
            new = crate::js::gateway::session_new;
            fn "register" -> crate::call::Tape = crate::js::gateway::session_register;
            fn "browseRanked" -> crate::call::Tape = crate::js::gateway::session_browse_ranked;
            fn "dispatch" -> crate::call::Tape = crate::js::gateway::session_dispatch;
            fn "seen" -> crate::call::Tape = crate::js::gateway::session_seen;
            fn "reset" -> () = crate::js::gateway::session_reset;
        }
        #[cfg(feature = "events")]
        class "EventsDecoder"(crate::api::events::EventsDecoder) {
            new = crate::js::events::decoder_new;
            fn "push" -> crate::call::Tape = crate::js::events::decoder_push;
            fn "finish" -> crate::call::Tape = crate::js::events::decoder_finish;
        }
    }
}
