#!/usr/bin/env bash
# Makes the Wine prefix the win32-x64 addon is run-tested in (test-only; README.md):
#   tests/wine/prefix.sh DIR     creates DIR (the WINEPREFIX) once; later runs check it and exit
# It downloads nothing: mscoree and mshtml are disabled, so wineboot does not look for Wine Mono
# or Gecko. Needs wine (Debian's 8.0) and zig (python3 -m ziglang) on the machine.
set -euo pipefail

prefix=$(realpath -m "$1")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh" "$prefix"

# The prefix is ready when this stamp names the shim's current source.
stamp=$prefix/.agentwire-prefix
want="win10 $(cat "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" | sha256sum | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
started=$(date +%s)
# The first start creates the prefix (about 10 s here). The syswow64 message that Debian's
# 64-bit-only wine prints is harmless: nothing here is 32-bit.
wineboot --init 2>&1 | grep -v -e 'syswow64' -e 'wine32 is missing' -e 'multiarch needs' -e 'dpkg --add-architecture' -e 'apt-get install wine32' || true
# node.exe refuses Wine's default version (Windows 7): "Node.js is only supported on Windows 8.1".
wine reg add 'HKCU\Software\Wine' /v Version /t REG_SZ /d win10 /f >/dev/null
# Wine 8.0 has no bcryptprimitives.dll (Wine 8.13 added it): the addon, like any Rust std
# program, fails to load with "Module not found" without it. A Wine that has it keeps its own.
system32=$prefix/drive_c/windows/system32
if [ ! -e "$system32/bcryptprimitives.dll" ]; then
  python3 -m ziglang cc -target x86_64-windows-gnu -shared -O2 -s \
    "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -lbcrypt \
    -o "$system32/bcryptprimitives.dll"
  rm -f "$system32/bcryptprimitives.lib" "$system32/bcryptprimitives.pdb"
  shim=installed
else
  shim="not needed (this Wine has its own)"
fi
wineserver --wait
echo "$want" > "$stamp"
echo "wine prefix $prefix: $(wine --version 2>/dev/null), Windows version win10, bcryptprimitives shim $shim ($(($(date +%s) - started)) s)"
