#!/usr/bin/env bash
# Builds the DocC documentation of the Cairn module (the doc comments and
# Sources/Cairn/Documentation.docc), prints its warnings, and fails when
# there is any: broken or ambiguous symbol links, undocumented parameters…
#
# Usage: Scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs
# Folders of this run only: two checkouts may check their docs at once.
work=$(mktemp -d)
symbol_graphs=$work/symbol-graphs
output=$work/docc
log=$work/log
trap 'rm -rf "$work"' EXIT

build_symbol_graphs() {
    # Stale graphs of symbols that no longer exist must not linger.
    rm -rf "$symbol_graphs"
    # With every trait: the APIs that traits compile in are documented too.
    swift build --target Cairn --scratch-path "$scratch" --enable-all-traits \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbol_graphs"
}

echo "== symbol graphs of the Cairn module"
build_symbol_graphs
# The compiler emits the graphs when it compiles the module: a build that
# was already up to date emits none. Build again from a clean scratch path.
if [ ! -f "$symbol_graphs/Cairn.symbols.json" ]; then
    echo "(the build was up to date: building again from scratch to emit the symbol graphs)"
    rm -rf "$scratch"
    build_symbol_graphs
fi
if [ ! -f "$symbol_graphs/Cairn.symbols.json" ]; then
    echo "error: no symbol graph in $symbol_graphs" >&2
    exit 1
fi

echo "== docc convert"
rm -rf "$output"
if ! docc convert Sources/Cairn/Documentation.docc \
    --additional-symbol-graph-dir "$symbol_graphs" \
    --fallback-display-name Cairn \
    --fallback-bundle-identifier org.cairn.Cairn \
    --output-path "$output" \
    --analyze >"$log" 2>&1
then
    cat "$log" >&2
    echo "error: docc convert failed" >&2
    exit 1
fi

count=$(grep -c 'warning:' "$log" || true)
if [ "$count" -gt 0 ]; then
    # The whole diagnostics, with the location and the suggested fix of
    # each warning.
    cat "$log"
    echo "error: $count documentation warning(s)" >&2
    exit 1
fi
echo "documentation: no warning"
