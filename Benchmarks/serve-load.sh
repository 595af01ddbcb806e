#!/usr/bin/env bash
# Load on `swift-yolo serve` over loopback with hey (Debian's `hey`): bus.jpg POSTed to /v1/detect
# at concurrency 1, 2, 8 and 32, then a soak of SOAK_REQUESTS for resident memory. Prints a
# Markdown table: throughput, p50/p99 latency, status codes and errors, and the 200s' throughput as a
# share of what the forward pass allows (cores ÷ the median one-thread forward pass of `bench`).
#
#   Benchmarks/serve-load.sh [BINARY] [MODEL] [IMAGE]
#   REQUESTS=200 (per concurrency) SOAK_REQUESTS=20000 SOAK_QUERY='?imgsz=320' WORKERS= MAX_QUEUE=16
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${1:-.build/release/swift-yolo}
MODEL=${2:-Weights/yolo11n.swyolo}
IMAGE=${3:-../shared/images/bus.jpg}
REQUESTS=${REQUESTS:-200}
SOAK_REQUESTS=${SOAK_REQUESTS:-20000}
SOAK_QUERY=${SOAK_QUERY:-}
MAX_QUEUE=${MAX_QUEUE:-16}
command -v hey >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -qq hey >/dev/null; } || { echo "serve-load: install hey (apt-get install hey)"; exit 1; }

out=$(mktemp)
"$BINARY" serve --model "$MODEL" --port 0 --max-queue "$MAX_QUEUE" ${WORKERS:+--workers $WORKERS} >"$out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do grep -q listening "$out" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$out")
[ -n "$port" ] || { cat "$out"; exit 1; }
url="http://127.0.0.1:$port/v1/detect"
rss() { awk '/VmRSS/ { print $2 }' /proc/$server/status; }

cores=$(nproc)
# The ceiling: one forward pass on the image at one thread, on every core at once.
forward_ms=$("$BINARY" bench --model "$MODEL" --threads 1 --runs 10 --json "$IMAGE" | python3 -c 'import json, sys; print(round(json.load(sys.stdin)["median_ms"], 1))')
echo "serve-load: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores cores; $("$BINARY" --version)"
echo "one forward pass on $(basename "$IMAGE") at 1 thread (bench, median of 10): $forward_ms ms, so $cores cores allow $(awk -v c="$cores" -v l="$forward_ms" 'BEGIN { printf "%.1f", c * 1000 / l }') requests/s"
echo
echo "| concurrency | requests | req/s | p50 ms | p99 ms | status codes | errors | 200s/s ÷ (cores ÷ forward pass) |"
echo "|---:|---:|---:|---:|---:|---|---:|---:|"
for c in 1 2 8 32; do
  report=$(hey -n "$REQUESTS" -c "$c" -m POST -T image/jpeg -D "$IMAGE" "$url")
  rps=$(sed -n 's/^[[:space:]]*Requests\/sec:[[:space:]]*//p' <<<"$report")
  p50=$(awk '/ 50% in/ { printf "%.1f", $3 * 1000 }' <<<"$report")
  p99=$(awk '/ 99% in/ { printf "%.1f", $3 * 1000 }' <<<"$report")
  codes=$(sed -n 's/^[[:space:]]*\[\([0-9]*\)\][[:space:]]*\([0-9]*\) responses/\1: \2/p' <<<"$report" | paste -sd, -)
  ok=$(sed -n 's/^[[:space:]]*\[200\][[:space:]]*\([0-9]*\) responses/\1/p' <<<"$report")
  total=$(sed -n 's/^[[:space:]]*Total:[[:space:]]*\([0-9.]*\) secs/\1/p' <<<"$report")
  errors=$(sed -n '/Error distribution/,$p' <<<"$report" | grep -c '^ *\[' || true)
  share=$(awk -v n="${ok:-0}" -v t="$total" -v c="$cores" -v l="$forward_ms" 'BEGIN { printf "%.0f%%", 100 * (n / t) / (c * 1000 / l) }')
  echo "| $c | $REQUESTS | $(printf %.1f "$rps") | $p50 | $p99 | $codes | $errors | $share |"
done

# Resident memory over the soak: after a 1,000-request warm-up, then at the end (SOAK_REQUESTS=0: no soak).
[ "$SOAK_REQUESTS" -gt 0 ] || exit 0
hey -n 1000 -c 8 -m POST -T image/jpeg -D "$IMAGE" "$url$SOAK_QUERY" >/dev/null
before=$(rss)
report=$(hey -n "$SOAK_REQUESTS" -c 8 -m POST -T image/jpeg -D "$IMAGE" "$url$SOAK_QUERY")
after=$(rss)
codes=$(sed -n 's/^[[:space:]]*\[\([0-9]*\)\][[:space:]]*\([0-9]*\) responses/\1: \2/p' <<<"$report" | paste -sd, -)
echo
echo "soak: $SOAK_REQUESTS requests at concurrency 8 ($url$SOAK_QUERY): $codes; RSS $((before / 1024)) MB after warm-up, $((after / 1024)) MB at the end ($(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }'))"
