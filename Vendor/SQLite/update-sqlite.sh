#!/usr/bin/env bash
# Re-creates the vendored SQLite amalgamation from the PyPI source distribution
# of sqlean.py, which carries the released SQLite files in its sqlite/ folder,
# and the SQLite3 Multiple Ciphers amalgamation (trait SQLITE_HAS_CODEC) from
# the source distribution of apsw-sqlite3mc, and checks the result against the
# SHA-256 sums recorded in VERSION.
#
# Usage:
#   Vendor/SQLite/update-sqlite.sh                 # downloads the sdists with pip
#   Vendor/SQLite/update-sqlite.sh path/to/sqlean_py-3.50.4.5.tar.gz [path/to/apsw_sqlite3mc-3.50.4.0.tar.gz]
#   Vendor/SQLite/update-sqlite.sh --check         # only verifies the vendored files
#
# The files are never edited: sqlite3.h and sqlite3ext.h are copied as they are;
# sqlite3.c is cut after the amalgamation's last line
# "/************************** End of sqlite3.c ******************************/",
# which drops the lines sqlean.py appends to register its own extensions.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
sdist_version=$(sed -n 's/^sdist: sqlean.py==\(.*\)$/\1/p' "$here/VERSION")
mc_sdist_version=$(sed -n 's/^mc-sdist: apsw-sqlite3mc==\(.*\)$/\1/p' "$here/VERSION")
marker='/************************** End of sqlite3.c ******************************/'

expected_sum() { # file name -> hash recorded in VERSION
    awk -v f="$1" '$2 == f && length($1) == 64 { print $1 }' "$here/VERSION"
}

verify() {
    local status=0 file want have
    for file in sqlite3.c include/sqlite3.h sqlite3ext.h sqlite3mc.c; do
        want=$(expected_sum "$file")
        have=$(sha256sum "$here/$file" | cut -c1-64)
        if [ -z "$want" ]; then
            echo "VERSION records no SHA-256 for $file" >&2; status=1
        elif [ "$want" != "$have" ]; then
            echo "MISMATCH $file: expected $want, got $have" >&2; status=1
        else
            echo "ok $file $have"
        fi
    done
    return $status
}

if [ "${1:-}" = "--check" ]; then
    verify
    exit
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${1:-}" ]; then
    tarball=$1
else
    pip download --quiet --no-deps --no-binary :all: --dest "$work" "sqlean.py==$sdist_version"
    tarball=$(ls "$work"/sqlean_py-*.tar.gz)
fi
if [ -n "${2:-}" ]; then
    mc_tarball=$2
else
    pip download --quiet --no-deps --no-binary :all: --dest "$work" "apsw-sqlite3mc==$mc_sdist_version"
    mc_tarball=$(ls "$work"/apsw[-_]sqlite3mc-*.tar.gz)
fi

tar -xzf "$tarball" -C "$work"
src=$(ls -d "$work"/sqlean_py-*/sqlite)

line=$(grep -nF "$marker" "$src/sqlite3.c" | head -n 1 | cut -d: -f1)
if [ -z "$line" ]; then
    echo "end-of-amalgamation marker not found in $src/sqlite3.c" >&2
    exit 1
fi
head -n "$line" "$src/sqlite3.c" > "$here/sqlite3.c"
cp "$src/sqlite3.h" "$here/include/sqlite3.h"
cp "$src/sqlite3ext.h" "$here/sqlite3ext.h"

tar -xzf "$mc_tarball" -C "$work"
cp "$(ls -d "$work"/apsw[-_]sqlite3mc-*/)sqlite3/sqlite3.c" "$here/sqlite3mc.c"

verify
