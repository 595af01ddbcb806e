#!/usr/bin/env bash
# The whole request, stage by stage: decode and preprocess against the forward pass (the share the
# README quotes). Runs `swift-yolo detect --json` of each binary in alternation (A B, B A, …) over
# COPIES copies of each image in one process, and prints per binary and image the medians of the
# stages' timings (the first two copies of each image left out: they warm the caches and the
# allocator) and (decode + preprocess) ÷ inference. With --cold, each copy of each image runs in a
# process of its own instead, every one counted: a process's first detection, whose every buffer
# is fresh pages (a fault and a zero-fill each), as for one image per process on a small host.
#
#   Benchmarks/request-stages.sh [--rounds 4] [--threads 1] [--copies 12] [--cold] [--model Weights/yolo11n.swyolo]
#                                [--image ../shared/images/bus.jpg ...] BINARY...
#
# SWIFTYOLO_KERNELS passes through (e.g. SWIFTYOLO_KERNELS=avx2 for the AVX2 kernels on an AVX-512 CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=4 threads=1 copies=12 cold=0 model=Weights/yolo11n.swyolo images=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --cold) cold=1; shift ;;
    --model) model=$2; shift 2 ;;
    --image) images+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "request-stages.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "request-stages.sh: name at least one binary" >&2; exit 2; }
[ ${#images[@]} -gt 0 ] || images=(../shared/images/bus.jpg ../shared/images/zidane.jpg)
[ "$copies" -ge 3 ] || { echo "request-stages.sh: --copies must be at least 3" >&2; exit 2; }
inputs=()
for _ in $(seq "$copies"); do inputs+=("${images[@]}"); done
binaries=("$@")
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order=("${binaries[@]}"); else order=(); for ((i = ${#binaries[@]} - 1; i >= 0; i--)); do order+=("${binaries[i]}"); done; fi
  for binary in "${order[@]}"; do
    if [ "$cold" -eq 1 ]; then
      for input in "${inputs[@]}"; do
        "$binary" detect --json --threads "$threads" --model "$model" "$input" \
          | awk -v binary="$binary" '{ printf "%s\tcold\t%s\n", binary, $0 }' >>"$results"
      done
    else
      "$binary" detect --json --threads "$threads" --model "$model" "${inputs[@]}" \
        | awk -v binary="$binary" -v images=${#images[@]} '{ printf "%s\t%d\t%s\n", binary, int((NR - 1) / images), $0 }' >>"$results"
    fi
  done
done
python3 - "$results" "${binaries[@]}" <<'EOF'
import json, statistics, sys
path, binaries = sys.argv[1], sys.argv[2:]
timings = {}
for line in open(path):
    binary, copy, record = line.rstrip("\n").split("\t", 2)
    record = json.loads(record)
    if "error" in record:
        sys.exit(f"request-stages.sh: {record['image']}: {record['error']}")
    if copy == "cold" or int(copy) >= 2:  # in one process, its first two copies of each image are cold
        timings.setdefault((record["image"], binary), []).append(record["timing_ms"])
print(f"{'image':<28} {'binary':<32} {'decode':>7} {'preproc':>7} {'forward':>8} {'share':>6}")
for image in dict.fromkeys(image for image, _ in timings):
    for binary in binaries:
        runs = timings[(image, binary)]
        stages = {stage: statistics.median(t[stage] for t in runs) for stage in ("decode", "preprocess", "inference")}
        share = (stages["decode"] + stages["preprocess"]) / stages["inference"]
        print(f"{image[-28:]:<28} {binary[-32:]:<32} {stages['decode']:7.2f} {stages['preprocess']:7.2f} "
              f"{stages['inference']:8.2f} {share:6.1%}")
EOF
