#!/usr/bin/env bash
# One Detector shared by 8 threads, 2,000 detections over the sample images, each result compared
# with the same detection run single-threaded (README, "Reliability"). At the lowest CPU priority.
#
#   Benchmarks/concurrency.sh [--threads 8] [--detections 2000] [--imgsz 640] [--model PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTYOLO_RELIABILITY=1 SWIFTYOLO_SERVER=0 nice -n 19 swift build -c release --scratch-path .build-reliability --product concurrency >&2
images=(../shared/images/bus.jpg ../shared/images/zidane.jpg Tests/Fixtures/images/parity/*)
exec nice -n 19 .build-reliability/release/concurrency "$@" "${images[@]}"
