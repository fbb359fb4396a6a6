// Bundled examples, one per format, taken from the project's fixtures (tests/fixtures): a
// search_symbols tool response as JSON and as GCX1 (the upstream benchmark's first case), a
// GCF v1.1 graph, godex event streams. The GCB1 sample is the GCF graph encoded at load time.
// The MCP sample is a CallToolResult as MCP server-memory's `read_graph` returns it (the graph as
// indented JSON text), built here from a small knowledge graph.

const people = ['ada', 'bo', 'chen', 'dara', 'eli', 'fay', 'gus', 'hana'];
const memoryGraph = {
  entities: people.map((name, i) => ({
    name: `person_${name}`,
    entityType: 'person',
    observations: [`works on project ${(i % 3) + 1}`, `joined in ${2019 + (i % 5)}`],
  })),
  relations: people.slice(1).map((name, i) => ({ from: `person_${people[i]}`, to: `person_${name}`, relationType: i % 2 ? 'reports_to' : 'works_with' })),
};
const readGraphResult = { content: [{ type: 'text', text: JSON.stringify(memoryGraph, null, 2) }] };

export const SAMPLES = {
  mcp: { label: 'MCP CallToolResult (server-memory read_graph)', tool: 'read_graph', text: JSON.stringify(readGraphResult, null, 2) },
  json: { label: 'JSON tool response (search_symbols)', tool: "search_symbols", text: "[\n  {\"id\":\"internal/mcp/server.go::NewServer\",\"kind\":\"function\",\"name\":\"NewServer\",\"file_path\":\"internal/mcp/server.go\",\"start_line\":62},\n  {\"id\":\"internal/mcp/server.go::Server.Start\",\"kind\":\"method\",\"name\":\"Start\",\"file_path\":\"internal/mcp/server.go\",\"start_line\":118},\n  {\"id\":\"internal/mcp/server.go::Server.Shutdown\",\"kind\":\"method\",\"name\":\"Shutdown\",\"file_path\":\"internal/mcp/server.go\",\"start_line\":140},\n  {\"id\":\"internal/mcp/tools_core.go::registerCoreTools\",\"kind\":\"method\",\"name\":\"registerCoreTools\",\"file_path\":\"internal/mcp/tools_core.go\",\"start_line\":307},\n  {\"id\":\"internal/mcp/tools_coding.go::registerCodingTools\",\"kind\":\"method\",\"name\":\"registerCodingTools\",\"file_path\":\"internal/mcp/tools_coding.go\",\"start_line\":1}\n]\n" },
  gcx1: { label: 'GCX1 payload (search_symbols)', text: "GCX1 tool=search_symbols fields=file_path,id,kind,name,start_line rows=5\ninternal/mcp/server.go\tinternal/mcp/server.go::NewServer\tfunction\tNewServer\t62\ninternal/mcp/server.go\tinternal/mcp/server.go::Server.Start\tmethod\tStart\t118\ninternal/mcp/server.go\tinternal/mcp/server.go::Server.Shutdown\tmethod\tShutdown\t140\ninternal/mcp/tools_core.go\tinternal/mcp/tools_core.go::registerCoreTools\tmethod\tregisterCoreTools\t307\ninternal/mcp/tools_coding.go\tinternal/mcp/tools_coding.go::registerCodingTools\tmethod\tregisterCodingTools\t1\n" },
  gcf: { label: 'GCF v1.1 graph', text: "GCF tool=blast_radius budget=10000 tokens=500 symbols=4\n## targets\n@0 fn pkg.Auth 0.95 lsp_resolved\n## related\n@1 type pkg.Server 0.80 lsp_resolved\n@2 type pkg.Config 0.60 ast_inferred\n## extended\n@3 iface pkg.Logger 0.40 structural\n## edges\n@0<@1 calls\n@2<@0 references\n@3<@0 implements\n@3<@1 references\n" },
  gcb1: { label: 'GCB1 bytes (the GCF graph, binary)', fromGcf: true },
  events: { label: 'Event stream (godex mock tool loop)', text: "{\"response\":{\"id\":\"mock-response\",\"object\":\"response\",\"status\":\"in_progress\"},\"type\":\"response.created\"}\n{\"item\":{\"call_id\":\"call_mock\",\"id\":\"fc_mock\",\"name\":\"mock_tool\",\"type\":\"function_call\"},\"type\":\"response.output_item.added\"}\n{\"delta\":\"{\\\"value\\\":42}\",\"item_id\":\"fc_mock\",\"type\":\"response.function_call_arguments.delta\"}\n{\"item\":{\"arguments\":\"{\\\"value\\\":42}\",\"call_id\":\"call_mock\",\"id\":\"fc_mock\",\"name\":\"mock_tool\",\"type\":\"function_call\"},\"type\":\"response.output_item.done\"}\n{\"delta\":\"mock tool result: ok\",\"type\":\"response.output_text.delta\"}\n{\"response\":{\"id\":\"mock-response\",\"object\":\"response\",\"status\":\"completed\"},\"type\":\"response.completed\"}\n" },
  'events-bad': { label: 'Event stream with lifecycle errors', text: "{\"type\":\"response.output_item.added\",\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"f\"}}\n{\"type\":\"response.output_item.added\",\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"f\"}}\n{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"delta\":\"{}\"}\n{\"type\":\"response.output_item.done\",\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"call_id\":\"call_X\",\"name\":\"f\",\"arguments\":\"{}\"}}\n{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"delta\":\"{\\\"late\\\":1}\"}\n{\"type\":\"response.output_item.done\",\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{}\"}}\n{\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":1,\"output_tokens\":1,\"cached_tokens\":0}}}\n{\"type\":\"response.output_text.delta\",\"delta\":\"after\"}\n{\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":9,\"output_tokens\":9,\"cached_tokens\":0}}}\n" },
};
