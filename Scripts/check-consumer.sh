#!/usr/bin/env bash
# Checks that a package that depends on Cairn gets what Cairn's traits
# compile in, with no settings of its own: the C functions and the Swift API
# of the session extension with the SQLITE_ENABLE_SESSION trait, and a build
# without it otherwise. Builds Tests/Fixtures/TraitConsumer against this
# checkout (run by .ci/run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The consumer names the dependency "cairn", whatever the checkout's folder
# is called.
ln -s "$root" "$work/cairn"
cp -R "$root/Tests/Fixtures/TraitConsumer" "$work/consumer"
cd "$work/consumer"

echo "-- without the trait"
swift build --product PlainConsumer 2>&1 | tail -1
output="$(.build/debug/PlainConsumer)"
echo "$output"
[[ "$output" == "session: false fts5: true" ]] || { echo "unexpected output" >&2; exit 1; }

echo "-- with the trait"
swift build --traits Session 2>&1 | tail -1
output="$(.build/debug/SessionConsumer)"
echo "$output"
[[ "$output" == "session: true operations: 2 replica: Arthur,Barbara" ]] || { echo "unexpected output" >&2; exit 1; }
output="$(.build/debug/PlainConsumer)"
[[ "$output" == "session: true fts5: true" ]] || { echo "unexpected output: $output" >&2; exit 1; }
echo "consumer: ok"
