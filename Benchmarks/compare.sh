#!/usr/bin/env bash
# Before/after for an optimization: times two or more swift-yolo binaries in alternation (A B C,
# A B C, …) with `swift-yolo bench --json`, so that drifts in the machine's speed hit them alike,
# and prints each one's median of the per-round medians and its ratio to the first.
#
#   Benchmarks/compare.sh [--rounds 4] [--threads 1] [--runs 20] [--warmup 5] BINARY BINARY...
#
# Keep a copy of the binary before a change (cp .build/release/swift-yolo /tmp/before), rebuild,
# then: Benchmarks/compare.sh /tmp/before .build/release/swift-yolo. OPENBLAS_CORETYPE is removed
# so that OpenBLAS picks its kernels for this CPU, as Benchmarks/peers.py does.
set -euo pipefail
rounds=4 threads=1 runs=20 warmup=5
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "compare.sh: give at least two binaries (--help)" >&2; exit 2; }
for binary in "$@"; do [ -x "$binary" ] || { echo "compare.sh: '$binary' is not an executable" >&2; exit 2; }; done

for round in $(seq "$rounds"); do
  for binary in "$@"; do
    OPENBLAS_CORETYPE= "$binary" bench --threads "$threads" --runs "$runs" --warmup "$warmup" --json \
      | python3 -c "import json, sys; print(sys.argv[1], json.load(sys.stdin)['median_ms'])" "$binary"
  done
done | python3 -c '
import collections, statistics, sys
medians = collections.OrderedDict()
for line in sys.stdin:
    binary, value = line.rsplit(" ", 1)
    medians.setdefault(binary, []).append(float(value))
first = None
for binary, values in medians.items():
    median = statistics.median(values)
    first = first or median
    rounds = ", ".join(f"{v:.2f}" for v in values)
    print(f"{binary}: median {median:.2f} ms ({median / first:.3f}x the first; rounds {rounds})")
'
