#!/usr/bin/env bash
# Runs a Windows program under Wine in the tests' prefix (made by prefix.sh):
#   tests/wine/run.sh PREFIX PROGRAM.exe ARGS...
# node.exe under Wine 8.0 cannot write to a pipe (its stdout fails with "open EBADF" when
# the caller reads it through one), so the program writes to files, copied out when it exits.
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/env.sh" "$(realpath -m "$1")"
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
wine "$@" < /dev/null > "$out/stdout" 2> "$out/stderr" || status=$?
cat "$out/stdout"
cat "$out/stderr" >&2
exit "$status"
