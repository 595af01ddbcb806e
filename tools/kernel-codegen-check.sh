#!/usr/bin/env bash
# The packed GEMM's micro-kernel passes, in every kernel set, must compile to loops of loads,
# broadcasts and multiply-adds: no call left in them to the standard library's `loadUnaligned`. The
# optimizer stops inlining into a function that has grown past its limits, and then leaves exactly
# that call in the loop (and the accumulators on the stack, and another module's getters): the
# forward pass ran 2.7x slower for it once (docs/performance.md, 2026-11-27, fifth session). Reads
# the disassembly of a release binary (objdump, from binutils).
#
#   tools/kernel-codegen-check.sh [BINARY]      (default .build/release/swift-yolo)
set -euo pipefail
binary=${1:-.build/release/swift-yolo}
command -v objdump >/dev/null || { echo "kernel-codegen-check: needs objdump (apt-get install binutils)" >&2; exit 1; }
[[ -x $binary ]] || { echo "kernel-codegen-check: no release binary at $binary (swift build -c release)" >&2; exit 1; }
objdump -d --no-show-raw-insn "$binary" | awk '
    # The packed GEMM and its micro-kernel passes, in each kernel set.
    /^[0-9a-f]+ <.*YOLOKernels(Baseline|AVX2|AVX512)[0-9]+(packedGEMM|multiplyFourOrEightRows|multiplySixRows[A-Za-z]+|multiplyPanelByVector)/ {
        inside = 1; name = $2; if (name !~ /packedGEMM/) passes++; next
    }
    /^$/ { inside = 0 }
    inside && /call/ && /loadUnaligned/ { print "kernel-codegen-check: " name " calls " $NF; bad++ }
    END {
        # Five passes in each of three sets (the six-row ones unused but compiled where groups are
        # single panels). Fewer: a pass was inlined into packedGEMM, where the optimizer gives up.
        if (passes < 15) { print "kernel-codegen-check: found " passes + 0 " micro-kernel passes, expected 15"; exit 1 }
        if (bad) exit 1
        print "kernel-codegen-check: packedGEMM and " passes " micro-kernel passes in 3 kernel sets, no load left a call"
    }' >&2
