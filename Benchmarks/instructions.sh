#!/bin/bash
# Counts the instructions per row of the workloads of a benchmark, with
# valgrind's callgrind: deterministic figures, unlike timings on a shared
# machine. Needs valgrind (`apt-get install valgrind`).
#
# Usage: Benchmarks/instructions.sh EXECUTABLE FILTER [ROWS]
#   Benchmarks/instructions.sh InsertBenchmark "6 insert" 20000
#
# The benchmark runs each workload twice (warm-up and one iteration), raw C
# and Cairn: the script prints the most expensive functions of the
# benchmark's own module, with their inclusive instruction counts divided by
# 2 × ROWS. The raw C implementation and the Cairn closure of the workload
# are among them (FetchBenchmark: `raw…`, and a closure of `main`).
set -euo pipefail
executable=${1:?usage: $0 EXECUTABLE FILTER [ROWS]}
filter=${2:?usage: $0 EXECUTABLE FILTER [ROWS]}
rows=${3:-20000}
cd "$(dirname "$0")/.."
swift build -c release --product "$executable" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF of Swift 6.3: strip the debug info.
cp ".build/release/$executable" "$work/benchmark"
strip -g "$work/benchmark"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$work/benchmark" --filter "$filter" --rows "$rows" --iterations 1 >/dev/null 2>&1
callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null \
    | grep -E "\\?\\?\\?:\\\$s[0-9]*${executable}" \
    | grep -vE "_main|Runner|measure|Workload|checksum|Checksum" \
    | head -8 \
    | awk -v rows="$rows" '{ n = $1; gsub(",", "", n); printf "%8d instructions per row  %s\n", n / (2 * rows), substr($0, index($0, "???:") + 4, 110) }'
