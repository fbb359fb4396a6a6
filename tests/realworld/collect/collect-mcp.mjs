// Reruns the collection of tests/realworld/mcp-*.json(l): real MCP servers from npm (versions
// pinned in package.json beside this file) driven over stdio by the real MCP SDK client.
// Usage: cd tests/realworld/collect && npm ci && node collect-mcp.mjs
// Every document is written exactly as the server produced it: the text of a tool result
// (what an agent reads) or a whole JSON-RPC line the server wrote (captured by tap.mjs).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "..");
const work = mkdtempSync(join(tmpdir(), "agentwire-realworld-"));
const serverEntry = (pkg) => join(here, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
// A fixed, clean environment: nothing of the collecting user's environment reaches a server.
const cleanEnv = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: work, LANG: "C.UTF-8" };

function save(name, text) {
  writeFileSync(join(outDir, name), text);
  console.log(`${name}\t${Buffer.byteLength(text)} bytes`);
}

/** Starts one server behind tap.mjs; returns helpers that remember the id of each request. */
async function connect(pkg, serverArgs, env) {
  const logPath = join(work, `${pkg}.stdout.jsonl`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(here, "tap.mjs"), logPath, serverEntry(pkg), ...serverArgs],
    env,
    stderr: "ignore",
  });
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const client = new Client({ name: "agentwire-realworld-collect", version: "1.0.0" });
  await client.connect(transport);
  const requestIds = new Map(); // label -> JSON-RPC id
  requestIds.set("initialize", sent.find((m) => m.method === "initialize").id);
  async function tracked(label, method, run) {
    const before = sent.length;
    const result = await run();
    const request = sent.slice(before).find((m) => m.method === method && "id" in m);
    requestIds.set(label, request.id);
    return result;
  }
  async function close() {
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 300)); // let tap.mjs flush its log
    const lines = readFileSync(logPath, "utf8").split("\n").filter((line) => line !== "");
    const responseLine = (label) => {
      const id = requestIds.get(label);
      const line = lines.find((l) => {
        const m = JSON.parse(l);
        return m.id === id && ("result" in m || "error" in m);
      });
      if (!line) throw new Error(`no response for ${label}`);
      return line;
    };
    return { log: readFileSync(logPath, "utf8"), responseLine };
  }
  return { client, tracked, close };
}

const textOf = (result) => {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.content.find((c) => c.type === "text").text;
};

async function memory() {
  const seed = JSON.parse(readFileSync(join(here, "memory-seed.json"), "utf8"));
  const storePath = join(work, "memory.jsonl");
  const s = await connect("server-memory", [], { ...cleanEnv, MEMORY_FILE_PATH: storePath });
  await s.tracked("tools/list", "tools/list", () => s.client.listTools());
  const call = (label, name, args) =>
    s.tracked(label, "tools/call", () => s.client.callTool({ name, arguments: args }));
  save("mcp-memory-create-entities.json", textOf(await call("create_entities", "create_entities", { entities: seed.entities })));
  await call("create_relations", "create_relations", { relations: seed.relations });
  await call("add_observations", "add_observations", { observations: seed.observations });
  save("mcp-memory-read-graph.json", textOf(await call("read_graph", "read_graph", {})));
  save(
    "mcp-memory-open-nodes.json",
    textOf(await call("open_nodes", "open_nodes", { names: ["charge-api", "INC-2026-031", "Jürgen Weiß", "東京オフィス"] })),
  );
  const { log, responseLine } = await s.close();
  save("mcp-memory-tools-list.json", responseLine("tools/list"));
  save("mcp-memory-stdio-server-messages.jsonl", log);
  save("mcp-memory-store.jsonl", readFileSync(storePath, "utf8"));
}

async function filesystem() {
  // A real tree: the pinned @modelcontextprotocol/sdk package as npm installed it.
  const root = join(here, "node_modules", "@modelcontextprotocol", "sdk");
  const s = await connect("server-filesystem", [root], cleanEnv);
  const call = (label, name, args) =>
    s.tracked(label, "tools/call", () => s.client.callTool({ name, arguments: args }));
  save("mcp-filesystem-directory-tree-sdk.json", textOf(await call("directory_tree", "directory_tree", { path: root })));
  await call("list_directory_with_sizes", "list_directory_with_sizes", { path: join(root, "dist", "esm", "server"), sortBy: "size" });
  const { responseLine } = await s.close();
  save("mcp-filesystem-list-directory-with-sizes-response.json", responseLine("list_directory_with_sizes"));
}

async function everything() {
  const s = await connect("server-everything", ["stdio"], cleanEnv);
  await s.tracked("tools/list", "tools/list", () => s.client.listTools());
  const call = (label, name, args) =>
    s.tracked(label, "tools/call", () => s.client.callTool({ name, arguments: args }));
  await call("get-structured-content", "get-structured-content", { location: "Chicago" });
  save("mcp-everything-get-env.json", textOf(await call("get-env", "get-env", {})));
  const { responseLine } = await s.close();
  save("mcp-everything-initialize-response.json", responseLine("initialize"));
  save("mcp-everything-tools-list.json", responseLine("tools/list"));
  save("mcp-everything-get-structured-content-response.json", responseLine("get-structured-content"));
}

try {
  await memory();
  await filesystem();
  await everything();
} finally {
  rmSync(work, { recursive: true, force: true });
}
