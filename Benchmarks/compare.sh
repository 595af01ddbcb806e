#!/usr/bin/env bash
# Before/after for an optimization: times two or more swift-yolo binaries in alternation (A B C,
# C B A, …) with `swift-yolo bench --json`, so that drifts in the machine's speed hit them alike,
# and prints each one's median of the per-round medians and its ratio to the first, then each
# one's ratio to the first taken round by round (median and quartiles: the figure to quote on a
# shared host) and its fastest run; with --layers, also the per-layer medians side by side (the
# README's per-layer tables).
#
#   Benchmarks/compare.sh [--rounds 4] [--threads 1] [--runs 20] [--warmup 5] [--layers] [--pin CPUS]
#                         [--processes 1] BINARY BINARY...
#
# --pin runs every bench on the given CPUs (taskset -c, e.g. --pin 1 for one-thread runs): on this
# 2-core machine the one-thread rounds of one binary then spread a few percent instead of over 10%.
# --processes N runs N copies of each bench at once (their medians averaged, per layer too): with
# --threads 2 on 2 cores, threads outnumbering cores, as when two detections run side by side.
#
# Keep a copy of the binary before a change (cp .build/release/swift-yolo /tmp/before), rebuild,
# then: Benchmarks/compare.sh /tmp/before .build/release/swift-yolo.
set -euo pipefail
rounds=4 threads=1 runs=20 warmup=5 layers=0 pin= processes=1
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --layers) layers=1; shift ;;
    --pin) pin=$2; shift 2 ;;
    --processes) processes=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "compare.sh: give at least two binaries (--help)" >&2; exit 2; }
launcher=()
if [ -n "$pin" ]; then
  command -v taskset >/dev/null || { echo "compare.sh: --pin needs taskset (util-linux)" >&2; exit 2; }
  launcher=(taskset -c "$pin")
fi
for binary in "$@"; do [ -x "$binary" ] || { echo "compare.sh: '$binary' is not an executable" >&2; exit 2; }; done
[[ $processes =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --processes wants a count, got '$processes'" >&2; exit 2; }
copies=$(mktemp -d)
trap 'rm -rf "$copies"' EXIT

# One round's report of a binary: its bench's, or the mean of --processes copies run at once.
bench_report() {
  local binary=$1 copy
  for copy in $(seq "$processes"); do
    "${launcher[@]}" "$binary" bench --threads "$threads" --runs "$runs" --warmup "$warmup" --json >"$copies/$copy.json" &
  done
  wait
  python3 - "$binary" "$copies"/*.json <<'PY'
import json, statistics, sys
reports = [json.load(open(path)) for path in sys.argv[2:]]
merged = reports[0]
merged["median_ms"] = statistics.mean(report["median_ms"] for report in reports)
merged["min_ms"] = min(report["min_ms"] for report in reports)
for index, layer in enumerate(merged["layers"]):
    layer["median_ms"] = statistics.mean(report["layers"][index]["median_ms"] for report in reports)
print(json.dumps([sys.argv[1], merged]))
PY
}

binaries=("$@")
reversed=()
for ((i = ${#binaries[@]} - 1; i >= 0; i--)); do reversed+=("${binaries[i]}"); done
for round in $(seq "$rounds"); do
  # Every other round in the reverse order, so that no binary always runs right after another.
  if (( round % 2 )); then order=("${binaries[@]}"); else order=("${reversed[@]}"); fi
  for binary in "${order[@]}"; do
    bench_report "$binary"
  done
done | python3 -c '
import collections, json, statistics, sys
reports = collections.OrderedDict((binary, []) for binary in sys.argv[2:])
for line in sys.stdin:
    binary, report = json.loads(line)
    reports[binary].append(report)
first = reports[sys.argv[2]]
baseline = statistics.median(run["median_ms"] for run in first)
for binary, runs in reports.items():
    values = [run["median_ms"] for run in runs]
    median = statistics.median(values)
    rounds = ", ".join(f"{v:.2f}" for v in values)
    print(f"{binary}: median {median:.2f} ms ({median / baseline:.3f}x the first; rounds {rounds})")
# On a shared host the speed of the whole machine drifts from round to round: the ratio to the first
# binary within each round cancels most of it.
if len(first) >= 2:
    print()
    fastestFirst = min(run["min_ms"] for run in first)
    for binary, runs in list(reports.items())[1:]:
        ratios = [run["median_ms"] / base["median_ms"] for run, base in zip(runs, first)]
        quartiles = statistics.quantiles(ratios, n=4)
        fastest = min(run["min_ms"] for run in runs)
        print(f"{binary} / {sys.argv[2]}, round by round: median {statistics.median(ratios):.3f}x "
              f"(quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}); fastest runs {fastest:.2f} against {fastestFirst:.2f} ms")
if sys.argv[1] == "1":
    binaries = list(reports)
    print()
    print("layer  module        " + "".join(f"{chr(65 + i):>9}" for i in range(len(binaries))) + "   (ms; " + ", ".join(f"{chr(65 + i)} = {b}" for i, b in enumerate(binaries)) + ")")
    for index, layer in enumerate(reports[binaries[0]][0]["layers"]):
        medians = [statistics.median(run["layers"][index]["median_ms"] for run in reports[b]) for b in binaries]
        module = layer["module"]
        print(f"{index:5}  {module:<12}" + "".join(f"{m:9.2f}" for m in medians))
' "$layers" "$@"
