#!/bin/bash
# Instruction counts of the benchmarks, with valgrind's callgrind:
# deterministic figures, unlike timings on a shared machine. Needs valgrind
# (`apt-get install valgrind`).
#
# Usage:
#   Benchmarks/instructions.sh --check
#       Counts the instructions of every budgeted workload, raw C and Cairn,
#       and exits 1 when a workload's instruction ratio (Cairn / raw C) is
#       over its budget, or when Cairn's instructions per unit grew more
#       than 3% over Benchmarks/instructions-baseline.tsv. `.ci/run` runs it.
#   Benchmarks/instructions.sh --record
#       Counts the same and rewrites the figures of the baseline file, keeping
#       its comments and its `accept` lines. Record after a change that is
#       meant to cost instructions (say why in the commit), or after an update
#       of SQLite, of the toolchain or of valgrind, which move raw C's counts.
#   Benchmarks/instructions.sh EXECUTABLE FILTER [ROWS]
#       A profile: the most expensive functions of the benchmark's own
#       module for the workloads whose name contains FILTER, with their
#       inclusive instruction counts divided by 2 × ROWS (the benchmark runs
#       each workload twice, warm-up and one iteration, raw C and Cairn).
#       Benchmarks/instructions.sh InsertBenchmark "6 insert" 20000
#
# How --check counts: each benchmark runs with `--instructions`, which runs
# each budgeted workload once after its warm-up, raw C then Cairn, through
# the function `cairn_benchmark_counted_run` (Benchmarks/Support). callgrind
# zeroes its counters when that function is entered and writes them to a
# new file when it returns, so dump 2k-1 holds raw C's k-th workload and
# dump 2k Cairn's, all threads included. Swift's hashing is made
# deterministic (SWIFT_DETERMINISTIC_HASHING), so two runs of the same build
# give the same counts.
#
# The baseline file has one line per workload: benchmark, rows, workload,
# raw C's and Cairn's instructions per unit. A line
# `accept<TAB>benchmark<TAB>workload<TAB>reason` lets a workload's
# instruction ratio stay over its time budget (it must still not grow): the
# budgets are time ratios, and a workload whose raw C side waits on memory
# more than Cairn's extra instructions do has a higher ratio in instructions
# than in time.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=Benchmarks/instructions-baseline.tsv
# The benchmarks and sizes of --check: large enough that fixed costs (open,
# CREATE TABLE, prepare) weigh little per unit, small enough to run under
# callgrind in about a minute and a half in all.
check_runs=(
    "FetchBenchmark 20000"
    "InsertBenchmark 20000"
    "PoolBenchmark 2000"
    "AssociationBenchmark 20000"
    "FTSBenchmark 2000"
)
tolerance=3 # percent of growth over the baseline

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Builds in release; prints the compiler's output when the build fails.
build_release() {
    if ! swift build -c release "$@" >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log" >&2
        echo "error: the release build failed" >&2
        exit 1
    fi
}

# Copies a release build of the executable into the scratch folder, without
# debug info: valgrind 3.19 cannot read the DWARF of Swift 6.3.
prepare() {
    build_release --product "$1"
    cp ".build/release/$1" "$work/$1"
    strip -g "$work/$1"
}

profile() {
    local executable=$1 filter=$2 rows=$3
    prepare "$executable"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
        "$work/$executable" --filter "$filter" --rows "$rows" --iterations 1 >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null \
        | grep -E "\\?\\?\\?:\\\$s[0-9]*${executable}" \
        | grep -vE "_main|Runner|measure|Workload|checksum|Checksum" \
        | head -8 \
        | awk -v rows="$rows" '{ n = $1; gsub(",", "", n); printf "%8d instructions per row  %s\n", n / (2 * rows), substr($0, index($0, "???:") + 4, 110) }'
}

# Prints a line per budgeted workload of a benchmark: benchmark, rows,
# workload, budget, raw C's and Cairn's instructions per unit.
count() {
    local executable=$1 rows=$2
    prepare "$executable"
    if ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
        --callgrind-out-file="$work/$executable.out" \
        --zero-before=cairn_benchmark_counted_run --dump-after=cairn_benchmark_counted_run \
        "$work/$executable" --instructions --rows "$rows" \
        >"$work/$executable.txt" 2>"$work/$executable.err"
    then
        tail -20 "$work/$executable.err" >&2
        echo "error: $executable --instructions failed under callgrind" >&2
        exit 1
    fi
    local index=0
    while IFS=$'\t' read -r tag name units budget; do
        [ "$tag" = counted ] || continue
        local raw cairn
        raw=$(awk '/^summary:/ { print $2 }' "$work/$executable.out.$((2 * index + 1))")
        cairn=$(awk '/^summary:/ { print $2 }' "$work/$executable.out.$((2 * index + 2))")
        index=$((index + 1))
        awk -v b="$executable" -v r="$rows" -v n="$name" -v bu="$budget" -v u="$units" -v raw="$raw" -v cairn="$cairn" \
            'BEGIN { printf "%s\t%s\t%s\t%s\t%.1f\t%.1f\n", b, r, n, bu, raw / u, cairn / u }'
    done <"$work/$executable.txt"
    if [ "$index" -eq 0 ]; then
        echo "error: $executable ran no budgeted workload" >&2
        exit 1
    fi
}

count_all() {
    build_release
    for run in "${check_runs[@]}"; do
        # shellcheck disable=SC2086
        count $run
    done
}

case "${1:-}" in
--check)
    command -v valgrind >/dev/null || { echo "error: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
    [ -f "$baseline" ] || { echo "error: no $baseline: run $0 --record" >&2; exit 1; }
    count_all >"$work/counts.tsv"
    awk -F'\t' -v tolerance="$tolerance" -v baseline="$baseline" '
        FNR == NR {
            if ($0 ~ /^#/ || $0 == "") next
            if ($1 == "accept") { accepted[$2 "\t" $3] = $4; next }
            key = $1 "\t" $3
            baseRows[key] = $2; baseRaw[key] = $4; baseCairn[key] = $5; listed[key] = 1
            next
        }
        {
            key = $1 "\t" $3; budget = $4 + 0; raw = $5; cairn = $6; ratio = cairn / raw
            seen[key] = 1
            status = ""
            if (!(key in listed)) {
                status = "FAIL: not in the baseline (run --record)"; failed = 1
            } else if (baseRows[key] != $2) {
                status = "FAIL: the baseline was counted at " baseRows[key] " rows (run --record)"; failed = 1
            } else {
                growth = (cairn / baseCairn[key] - 1) * 100
                rawDrift = (raw / baseRaw[key] - 1) * 100
                if (growth > tolerance) {
                    status = sprintf("FAIL: Cairn +%.1f%% over the baseline", growth); failed = 1
                }
                if (rawDrift > tolerance || rawDrift < -tolerance) {
                    status = status sprintf(" (raw C moved %+.1f%%: another SQLite, toolchain or valgrind? run --record)", rawDrift)
                    failed = 1
                }
            }
            if (ratio > budget) {
                if (key in accepted) {
                    status = status sprintf(" (over its budget, accepted: %s)", accepted[key])
                } else {
                    status = sprintf("FAIL: ratio %.3f over its budget %.2f ", ratio, budget) status; failed = 1
                }
            } else if (key in accepted) {
                status = status " (within its budget now: remove its accept line)"
            }
            if (status == "" || status ~ /^ /) status = "ok" status
            printf "%-22s %-60s %10.1f %10.1f %8.3f %6.2f %+7.1f%%  %s\n", $1, $3, raw, cairn, ratio, budget,
                (key in listed) ? (cairn / baseCairn[key] - 1) * 100 : 0, status
        }
        END {
            for (key in listed) if (!(key in seen)) {
                split(key, parts, "\t")
                printf "FAIL: %s \"%s\" is in the baseline but did not run (renamed, or no budget any more? run --record)\n", parts[1], parts[2]
                failed = 1
            }
            if (failed) { print "instruction check: FAILED"; exit 1 }
            print "instruction check: every budgeted workload within its budget and within " tolerance "% of the baseline"
        }
    ' "$baseline" - <"$work/counts.tsv" > "$work/report.txt" || { printf "%-22s %-60s %10s %10s %8s %6s %8s\n" benchmark workload "raw C" Cairn ratio budget "vs base"; cat "$work/report.txt"; exit 1; }
    printf "%-22s %-60s %10s %10s %8s %6s %8s\n" benchmark workload "raw C" Cairn ratio budget "vs base"
    cat "$work/report.txt"
    ;;
--record)
    command -v valgrind >/dev/null || { echo "error: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
    count_all >"$work/counts.tsv"
    {
        if [ -f "$baseline" ]; then
            grep -E '^(#|accept\b)' "$baseline" || true
        else
            printf '# Instructions per unit of the budgeted workloads (Benchmarks/instructions.sh).\n'
            printf '# benchmark\trows\tworkload\traw C\tCairn\n'
        fi
        cut -f1-3,5,6 "$work/counts.tsv"
    } >"$work/baseline.tsv"
    mv "$work/baseline.tsv" "$baseline"
    echo "recorded $baseline:"
    awk -F'\t' '{ printf "%-22s %-60s %10.1f %10.1f %8.3f\n", $1, $3, $5, $6, $6 / $5 }' "$work/counts.tsv"
    ;;
-*)
    echo "usage: $0 --check | --record | EXECUTABLE FILTER [ROWS]" >&2
    exit 2
    ;;
*)
    profile "${1:?usage: $0 --check | --record | EXECUTABLE FILTER [ROWS]}" \
        "${2:?usage: $0 EXECUTABLE FILTER [ROWS]}" "${3:-20000}"
    ;;
esac
