#!/usr/bin/env bash
# Checks that SQLCipher 4 reads what Cairn writes with `usePassphrase` (the
# trait SQLITE_HAS_CODEC), with the SQLCipher 4 of the PyPI package
# sqlcipher3-binary, installed in a scratch folder. The other direction (Cairn
# reads what SQLCipher 4 wrote) is EncryptionTests.readsADatabaseWrittenBySQLCipher4,
# on the committed Tests/Fixtures/SQLCipher/sqlcipher4.db. Skipped, with a
# message, when the package cannot be installed. Run by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! python3 -m venv "$work/venv" > "$work/venv.log" 2>&1 \
    || ! "$work/venv/bin/pip" install --quiet sqlcipher3-binary==0.6.0 >> "$work/venv.log" 2>&1; then
    echo "skipped: sqlcipher3-binary could not be installed (no network, or no python3-venv)"
    tail -3 "$work/venv.log"
    exit 0
fi
cd "$root"
CAIRN_SQLCIPHER_OUT="$work/cairn.db" \
    swift test --traits SQLITE_HAS_CODEC --scratch-path .build/codec --filter writesWhatSQLCipher4Reads 2>&1 | tail -1
output="$("$work/venv/bin/python" Tests/Fixtures/SQLCipher/sqlcipher4.py read "$work/cairn.db")"
expected="1|Arthur|100
2|Barbara|1000
3|Craig|
cipher_integrity_check: ok"
echo "$output"
[[ "$output" == "$expected" ]] || { echo "SQLCipher 4 did not read what Cairn wrote" >&2; exit 1; }
echo "sqlcipher: ok"
