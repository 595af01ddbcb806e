#!/usr/bin/env bash
# 5,000 consecutive detections of mixed-size images, printing the resident-memory curve and its growth
# after warm-up (README, "Reliability"). At the lowest CPU priority.
#
#   Benchmarks/soak.sh [--detections 5000] [--every 100] [--warmup 500] [--model PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTYOLO_RELIABILITY=1 SWIFTYOLO_SERVER=0 nice -n 19 swift build -c release --scratch-path .build-reliability --product soak >&2
exec nice -n 19 .build-reliability/release/soak "$@" ../shared/images/bus.jpg ../shared/images/zidane.jpg
