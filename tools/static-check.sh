#!/usr/bin/env bash
# Proves that dist/swift-yolo (`make static`) runs on a host with nothing installed: no shared
# library, no /proc, /sys or /dev, no /etc, no Swift, only the binary, the weights and one image.
#
#   tools/static-check.sh          (as root: chroot; `make static-check` builds what it needs first)
#
# Builds nothing. Checks that ldd finds no dynamic dependency, copies dist/swift-yolo,
# Weights/yolo11n.swyolo and ../shared/images/bus.jpg into an empty temporary directory, runs
# `detect --json` there under chroot, and checks the detections (5, the first a bus, class 5, with
# confidence 0.938 ± 0.01). Prints one line: the binary's size and the wall time of that first run
# (the files were just copied, so they are in the page cache: a cold process, not a cold disk).
# Leaves nothing behind. Exit status 1 on any failure, with what went wrong on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=dist/swift-yolo
model=${STATIC_CHECK_MODEL:-Weights/yolo11n.swyolo}
image=${STATIC_CHECK_IMAGE:-../shared/images/bus.jpg}

fail() { echo "static-check: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root to chroot (CI runs as root); run it as root, e.g. sudo $0"
for file in "$binary" "$model" "$image"; do
  [ -f "$file" ] || fail "$file not found (make static weights)"
done
command -v python3 >/dev/null || fail "python3 not found (it parses the JSON outside the chroot)"

# ldd exits 1 for a static executable, saying so.
linkage=$(ldd "$binary" 2>&1 || true)
case $linkage in
  *"not a dynamic executable"*) ;;
  *) fail "$binary has dynamic dependencies: $(echo "$linkage" | tr '\n\t' '  ')" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/swift-yolo-static-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir "$root"
cp "$binary" "$root/swift-yolo"
cp "$model" "$root/yolo11n.swyolo"
cp "$image" "$root/bus.jpg"

start=$(date +%s%N)
status=0
chroot "$root" /swift-yolo detect --json --model /yolo11n.swyolo /bus.jpg >"$work/out.json" 2>"$work/err" || status=$?
end=$(date +%s%N)
[ "$status" = 0 ] || fail "detect in the empty chroot exited $status: $(head -c 2000 "$work/err")"

size=$(stat -c %s "$binary")
python3 - "$work/out.json" "$size" "$start" "$end" <<'EOF' || exit 1
import json, sys

path, size, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def fail(message):
    print(f"static-check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)
try:
    with open(path) as file:
        result = json.load(file)
    detections = result["detections"]
except (OSError, ValueError, KeyError, TypeError) as error:
    fail(f"cannot read detect's JSON ({error}): {open(path, errors='replace').read()[:500]!r}")
if len(detections) != 5:
    fail(f"{len(detections)} detections, expected 5: {detections}")
first = detections[0]
if first.get("class") != 5 or abs(first.get("confidence", -1) - 0.938) > 0.01:
    fail(f"first detection {first}, expected class 5 (bus) with confidence 0.938 ± 0.01")
print(f"static-check: dist/swift-yolo ({size / 1e6:.1f} MB, static) in an empty chroot: "
      f"{len(detections)} detections, {first.get('label', 'class 5')} {first['confidence']:.3f}; "
      f"cold start to first detection {(end - start) / 1e9:.2f} s")
EOF
