#!/bin/sh
# Preprocess time before and after a change, measured alternately on one core.
#   Benchmarks/Preprocess/measure.sh [OLD_REVISION [IMAGE [ROUNDS [ITERATIONS]]]]
# Builds preprocess-bench twice with `swiftc -O -wmo` from YOLOImage's preprocessing sources: once
# from OLD_REVISION (default HEAD), once from the working tree; then runs them in turn, ROUNDS times
# each (default 3), pinned with `taskset -c 1`. The image (default ../shared/images/bus.jpg) is
# decoded once by SwiftYOLO's own libjpeg wrapper. TARGET_CPU (e.g. skylake-avx512, haswell)
# compiles both for that CPU, as the kernel sets are, instead of for any x86-64; KEEP=1 keeps the
# temporary folder with both binaries (for perf) and names it on standard error.
set -eu
cd "$(dirname "$0")/../.."
old=${1:-HEAD}
image=${2:-../shared/images/bus.jpg}
rounds=${3:-3}
iterations=${4:-200}
work=$(mktemp -d)
trap 'if [ -n "${KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi' EXIT
# YOLOImage's preprocessing sources; since the loops became kernel-set entries, also what they use of
# YOLOKernels (the table, ImageKernels.swift; the taps, HorizontalTaps.swift; EvenShare.swift;
# compiled into the same module, its import dropped) and the loops themselves
# (Sources/YOLOImageKernelsShared). A revision lacking a file goes without it.
files="RGBImage.swift Resize.swift Preprocess.swift PixelBuffer.swift ParallelLoop.swift ResizeMode.swift YUVToRGB.swift YUVRange.swift ImageError.swift ImageKernels+Portable.swift"
loops="ResizePasses.swift PlanarConversion.swift ImageKernelTable.swift"

cc -O2 -I Sources/CImageCodecs/include -o "$work/decode" Benchmarks/Preprocess/decode.c \
    Sources/CImageCodecs/jpeg_codec.c -ljpeg
size=$("$work/decode" "$image" 2>&1 >"$work/image.rgb")

mkdir -p "$work/old" "$work/new"
for f in $files; do
    git show "$old:Sources/YOLOImage/$f" >"$work/old/$f" 2>/dev/null || rm "$work/old/$f"
    [ -f "Sources/YOLOImage/$f" ] && cp "Sources/YOLOImage/$f" "$work/new/$f"
done
for f in $loops; do
    git show "$old:Sources/YOLOImageKernelsShared/$f" >"$work/old/$f" 2>/dev/null || rm "$work/old/$f"
    [ -f "Sources/YOLOImageKernelsShared/$f" ] && cp "Sources/YOLOImageKernelsShared/$f" "$work/new/$f"
done
for f in ImageKernels.swift HorizontalTaps.swift EvenShare.swift; do
    git show "$old:Sources/YOLOKernels/$f" >"$work/old/Kernels-$f" 2>/dev/null || rm "$work/old/Kernels-$f"
    [ -f "Sources/YOLOKernels/$f" ] && cp "Sources/YOLOKernels/$f" "$work/new/Kernels-$f"
done
sed -i '/^import YOLOKernels$/d' "$work"/old/*.swift "$work"/new/*.swift
for v in old new; do
    (cd "$work/$v" && nice swiftc -O -wmo ${TARGET_CPU:+-target-cpu "$TARGET_CPU"} -module-name YOLOImage -package-name SwiftYOLO -o "$work/bench-$v" ./*.swift \
        "$OLDPWD/Benchmarks/Preprocess/main.swift")
done

for round in $(seq "$rounds"); do
    for v in old new; do
        printf '%s %s: ' "$round" "$v"
        taskset -c 1 "$work/bench-$v" "$work/image.rgb" $size "$iterations"
    done
done
