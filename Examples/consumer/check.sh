#!/usr/bin/env bash
# Builds this consumer package as a user's package would be built: against a tagged clone of the
# repository, by version, with a plain `swift build -c release`; then checks that it finds bus.jpg's
# bus and that its time per image is within 1.15x of `swift-yolo detect` (the binary given, by default
# .build/release/swift-yolo; `make consumer-check` gives dist/swift-yolo, the shipped release build)
# (medians over alternating runs); that BGRA and NV12 frames give the file's detections; that the
# video API's example runs; and that a debug build of it finds the same objects.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
SWIFT_YOLO=$(cd "$ROOT" && realpath "${1:-.build/release/swift-yolo}")
IMAGE=$ROOT/../shared/images/bus.jpg
MODEL=$ROOT/Weights/yolo11n.swyolo
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The committed tree, tagged, as a registry of versions would hand it out.
git clone --quiet "$ROOT" "$WORK/SwiftYOLO"
git -C "$WORK/SwiftYOLO" tag 0.1.0
# A copy of this package, so that its Package.resolved (pinning this run's clone) stays in $WORK.
mkdir "$WORK/consumer" && cp -R Package.swift Sources "$WORK/consumer/"
SWIFTYOLO_URL="file://$WORK/SwiftYOLO" SWIFTYOLO_VERSION=0.1.0 \
    swift build -c release --package-path "$WORK/consumer" --scratch-path "$WORK/build" >"$WORK/build.log" 2>&1 \
    || { cat "$WORK/build.log"; echo "consumer-check: the consumer package did not build"; exit 1; }
CONSUMER=$WORK/build/release/consumer
# What the consumer prints for bus.jpg: its bus and four people.
BUS_LINE=": 5 detections in .* ms: bus 0.93"

"$CONSUMER" "$MODEL" "$IMAGE" | grep -q "$BUS_LINE" \
    || { "$CONSUMER" "$MODEL" "$IMAGE"; echo "consumer-check: the consumer did not find bus.jpg's bus and four people"; exit 1; }

# Camera frames: BGRA with padded rows finds what the file gives; NV12 with per-call options the people.
"$CONSUMER" --frames "$MODEL" "$IMAGE" >"$WORK/frames.txt"
file=$(sed -n 's/^file: //p' "$WORK/frames.txt")
grep -q "^bgra8, 3264 bytes per row: $file\$" "$WORK/frames.txt" && grep -q "^nv12, persons at 0.5: person 0\.[0-9]*, person" "$WORK/frames.txt" \
    || { cat "$WORK/frames.txt"; echo "consumer-check: the BGRA or NV12 frame did not give the file's detections"; exit 1; }

# The video API (`import SwiftYOLOVideo`, docs/video.md's example) over three frames of bus.jpg:
# tracked objects are reported from the second frame (two hits), so the second and third agree and
# the scene settles on the third; then the recipes on their own, one row of the flat array a detection.
mkdir "$WORK/frames" && for i in 1 2 3; do cp "$IMAGE" "$WORK/frames/frame-$i.jpg"; done
"$WORK/build/release/video-recipes" "$MODEL" "$WORK/frames" >"$WORK/video.txt" 2>&1 \
    && grep -q '^frame 0: \[\]$' "$WORK/video.txt" && grep -q '^settled at 2: \[.*"bus"' "$WORK/video.txt" \
    && grep -q '^read 3, processed 3, skipped 0, dropped 0$' "$WORK/video.txt" \
    && grep -Eq '^recipes: ([1-9][0-9]*) tracked, settled true, \1 flat detections$' "$WORK/video.txt" \
    || { cat "$WORK/video.txt"; echo "consumer-check: the video API example did not give the stream's events"; exit 1; }

# A debug build, what `swift build` and `swift run` give while an app is written, finds the same
# objects (a debug build once trapped in the worker pool: see WorkerPool.runUnclaimedChunks).
SWIFTYOLO_URL="file://$WORK/SwiftYOLO" SWIFTYOLO_VERSION=0.1.0 \
    swift build --package-path "$WORK/consumer" --scratch-path "$WORK/build" >"$WORK/build-debug.log" 2>&1 \
    || { cat "$WORK/build-debug.log"; echo "consumer-check: the consumer package did not build in debug"; exit 1; }
"$WORK/build/debug/consumer" "$MODEL" "$IMAGE" >"$WORK/debug.txt" 2>&1 && grep -q "$BUS_LINE" "$WORK/debug.txt" \
    || { cat "$WORK/debug.txt"; echo "consumer-check: the debug build did not find bus.jpg's bus and four people"; exit 1; }

# Time per image, in alternation: the consumer's Detector.detect(imageAt:) against detect's "total".
# Eight rounds: a 2-vCPU host's slow spells last seconds, and with few rounds one that falls on the
# consumer's turns alone can move the median past the bound.
IMAGES=$(for _ in $(seq 8); do printf '%s ' "$IMAGE"; done)
consumer_ms=() cli_ms=()
for _ in $(seq 8); do
    # shellcheck disable=SC2086
    consumer_ms+=($("$CONSUMER" "$MODEL" $IMAGES | tail -n +2 | sed 's/.* in \([0-9.]*\) ms.*/\1/'))
    # shellcheck disable=SC2086
    cli_ms+=($("$SWIFT_YOLO" detect --json --model "$MODEL" $IMAGES | tail -n +2 | sed 's/.*"total": \([0-9.]*\).*/\1/'))
done
python3 - "${consumer_ms[*]}" "${cli_ms[*]}" <<'PY'
import statistics, sys
consumer = [float(x) for x in sys.argv[1].split()]
cli = [float(x) for x in sys.argv[2].split()]
c, m = statistics.median(consumer), statistics.median(cli)
print(f"consumer-check: the consumer package (by version, plain swift build -c release) {c:.1f} ms per image, "
      f"swift-yolo {m:.1f} ms: {c / m:.2f}x (bound 1.15x)")
sys.exit(0 if c <= 1.15 * m else 1)
PY
