#!/usr/bin/env bash
# Load on `swift-yolo serve` over loopback with hey (Debian's `hey`): bus.jpg POSTed to /v1/detect
# at concurrency 1, 2, 8 and 32, then a soak of SOAK_REQUESTS for resident memory. Prints a
# Markdown table: throughput, p50/p99 latency, status codes and errors, and throughput as a share
# of what the forward pass allows (cores ÷ the latency at concurrency 1).
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
echo "serve-load: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores cores; $("$BINARY" --version)"
echo
echo "| concurrency | requests | req/s | p50 ms | p99 ms | status codes | errors | share of cores ÷ latency |"
echo "|---:|---:|---:|---:|---:|---|---:|---:|"
single_ms=""
for c in 1 2 8 32; do
  report=$(hey -n "$REQUESTS" -c "$c" -m POST -T image/jpeg -D "$IMAGE" "$url")
  rps=$(sed -n 's/^ *Requests\/sec: *//p' <<<"$report")
  p50=$(awk '/ 50% in/ { printf "%.1f", $3 * 1000 }' <<<"$report")
  p99=$(awk '/ 99% in/ { printf "%.1f", $3 * 1000 }' <<<"$report")
  codes=$(sed -n 's/^ *\[\([0-9]*\)\] *\([0-9]*\) responses/\1: \2/p' <<<"$report" | paste -sd, -)
  errors=$(sed -n '/Error distribution/,$p' <<<"$report" | grep -c '^ *\[' || true)
  [ -z "$single_ms" ] && single_ms=$p50
  share=$(awk -v r="$rps" -v c="$cores" -v l="$single_ms" 'BEGIN { printf "%.0f%%", 100 * r / (c * 1000 / l) }')
  echo "| $c | $REQUESTS | $rps | $p50 | $p99 | $codes | $errors | $share |"
done

# Resident memory over the soak: after a 1,000-request warm-up, then at the end.
hey -n 1000 -c 8 -m POST -T image/jpeg -D "$IMAGE" "$url$SOAK_QUERY" >/dev/null
before=$(rss)
report=$(hey -n "$SOAK_REQUESTS" -c 8 -m POST -T image/jpeg -D "$IMAGE" "$url$SOAK_QUERY")
after=$(rss)
codes=$(sed -n 's/^ *\[\([0-9]*\)\] *\([0-9]*\) responses/\1: \2/p' <<<"$report" | paste -sd, -)
echo
echo "soak: $SOAK_REQUESTS requests at concurrency 8 ($url$SOAK_QUERY): $codes; RSS $((before / 1024)) MB after warm-up, $((after / 1024)) MB at the end ($(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }'))"
