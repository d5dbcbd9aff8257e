#!/usr/bin/env bash
# Checks that a package that depends on Cairn gets what Cairn's traits
# compile in, with no settings of its own: the C functions and the Swift API
# of the session extension with the SQLITE_ENABLE_SESSION trait, and of
# encryption with SQLITE_HAS_CODEC, and a build without them otherwise
# (with a wrapper tokenizer of its own over the word tokenizer: Cairn's
# inlinable code and ICU's library reach the consumer); and that `import
# Cairn` does not give it Cairn's own C helpers (_cairn_*). Builds Tests/Fixtures/TraitConsumer against this
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
expected="session: false fts5: true
words: 研究,生命,科学,keep found: 1"
[[ "$output" == "$expected" ]] || { echo "unexpected output" >&2; exit 1; }

echo "-- Cairn's C helpers are hidden"
if swift build --target ShimsAreHidden > "$work/hidden.txt" 2>&1; then
    echo "a consumer can call Cairn's C helpers (_cairn_*)" >&2; exit 1
fi
for name in _cairn_atomic_load_u64 _cairn_column_numeric _cairn_preupdate_hub; do
    grep -q "cannot find.*'$name' in scope" "$work/hidden.txt" \
        || { cat "$work/hidden.txt" >&2; echo "no error for $name" >&2; exit 1; }
done
if grep -q "error:.*sqlite3_libversion_number" "$work/hidden.txt"; then
    cat "$work/hidden.txt" >&2; echo "SQLite's C interface is not visible" >&2; exit 1
fi
echo "hidden: ok"

echo "-- with the trait"
swift build --traits Session 2>&1 | tail -1
output="$(.build/debug/SessionConsumer)"
echo "$output"
[[ "$output" == "session: true operations: 2 replica: Arthur,Barbara" ]] || { echo "unexpected output" >&2; exit 1; }
output="$(.build/debug/PlainConsumer)"
[[ "$output" == "session: true fts5: true
words: 研究,生命,科学,keep found: 1" ]] || { echo "unexpected output: $output" >&2; exit 1; }

echo "-- with the encryption trait"
output="$(swift build --product EncryptionConsumer 2>&1 | tail -1 >/dev/null; .build/debug/EncryptionConsumer)"
[[ "$output" == "encryption: false" ]] || { echo "unexpected output without the trait: $output" >&2; exit 1; }
swift build --traits Encryption --product EncryptionConsumer 2>&1 | tail -1
output="$(.build/debug/EncryptionConsumer)"
echo "$output"
[[ "$output" == "encryption: true name: Arthur clear: false engine: true" ]] || { echo "unexpected output" >&2; exit 1; }
echo "consumer: ok"
