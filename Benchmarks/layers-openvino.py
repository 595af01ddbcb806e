#!/usr/bin/env python3
"""SwiftYOLO's time per YOLO11n layer beside OpenVINO's, measured in alternation: where the engine loses.

`peers.py` compares whole forward passes. This script splits both engines' passes by the model's top-level
layers (`model.0` … `model.23`, as `swift-yolo bench` prints them), so that a gap to the fastest peer can be
traced to the layers that make it. Each round runs OpenVINO for --runs passes with its performance counters
on (PERF_COUNT: each node's time, summed over the nodes whose name holds `/model.N/`), then `swift-yolo bench
--runs R --json` (a process of its own, so each round pays the bench's load and warm-up); medians over the
passes, then over the rounds. OpenVINO runs as peers.py sets it up: the ONNX export on the CPU plugin,
INFERENCE_PRECISION_HINT=f32, PERFORMANCE_HINT=LATENCY, NUM_STREAMS=1, INFERENCE_NUM_THREADS=N.

Needs what `python3 Benchmarks/peers.py --models yolo11n --engines swiftyolo,openvino` leaves behind: the venv
Benchmarks/.venv-peers and the export Benchmarks/.work/yolo11n.onnx (it re-runs itself in that venv).

  python3 Benchmarks/layers-openvino.py --binary .build/release/swift-yolo --threads 1 --rounds 6
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
VENV_PYTHON = BENCHMARKS / ".venv-peers" / "bin" / "python"
ONNX = BENCHMARKS / ".work" / "yolo11n.onnx"
LAYER = re.compile(r"/model\.(\d+)/")


def openvino_round(request, feed, runs: int) -> tuple[float, dict[int, float]]:
    """Median pass time and median time per layer (ms) over `runs` passes."""
    totals, layers = [], collections.defaultdict(list)
    for _ in range(runs):
        start = time.perf_counter()
        request.infer(feed)
        totals.append((time.perf_counter() - start) * 1e3)
        per_layer = collections.defaultdict(float)
        for node in request.profiling_info:
            match = LAYER.search(node.node_name)
            per_layer[int(match.group(1)) if match else -1] += node.real_time.total_seconds() * 1e3
        for layer, ms in per_layer.items():
            layers[layer].append(ms)
    return statistics.median(totals), {layer: statistics.median(values) for layer, values in layers.items()}


def swiftyolo_round(binary: str, threads: int, runs: int) -> tuple[float, dict[int, float], list[str]]:
    """`swift-yolo bench --json`: median pass time, per-layer medians (ms) and the layers' module names."""
    done = subprocess.run([binary, "bench", "--threads", str(threads), "--runs", str(runs), "--warmup", "2", "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"layers-openvino: {binary} bench failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    layers = {layer["index"]: layer["median_ms"] for layer in report["layers"]}
    return report["median_ms"], layers, [layer["module"] for layer in report["layers"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/swift-yolo", help="the swift-yolo to time")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=6, help="rounds of alternation (default 6)")
    parser.add_argument("--runs", type=int, default=8, help="passes per engine per round (default 8)")
    args = parser.parse_args()
    if not ONNX.exists() or not VENV_PYTHON.exists():
        sys.exit("layers-openvino: run `python3 Benchmarks/peers.py --models yolo11n --engines swiftyolo,openvino` "
                 "first (it makes Benchmarks/.venv-peers and Benchmarks/.work/yolo11n.onnx)")
    if Path(sys.prefix).resolve() != VENV_PYTHON.parent.parent.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), __file__, *sys.argv[1:]])

    import numpy as np
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(ONNX)), "CPU", {
        "INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": "1",
        "INFERENCE_NUM_THREADS": str(args.threads), "PERF_COUNT": "YES"})
    request = compiled.create_infer_request()
    feed = {0: np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)}
    for _ in range(3):
        request.infer(feed)

    openvino, swiftyolo, modules = [], [], []
    for _ in range(args.rounds):
        openvino.append(openvino_round(request, feed, args.runs))
        total, layers, modules = swiftyolo_round(args.binary, args.threads, args.runs)
        swiftyolo.append((total, layers))

    def median_of(rounds, layer):
        return statistics.median(per_layer.get(layer, 0.0) for _, per_layer in rounds)

    ov_total = statistics.median(total for total, _ in openvino)
    sy_total = statistics.median(total for total, _ in swiftyolo)
    print(f"YOLO11n 640×640, {args.threads} thread(s), {args.rounds} rounds × {args.runs} passes, medians in ms")
    print(f"forward pass: SwiftYOLO {sy_total:.2f}, OpenVINO {ov_total:.2f} ({sy_total / ov_total:.2f}×)")
    print("(OpenVINO's per-layer sums leave out the time between its nodes; its input reorder is not in a layer)")
    print(f"{'layer':>5}  {'module':<12} {'SwiftYOLO':>9} {'OpenVINO':>9} {'ratio':>6}")
    for layer, module in enumerate(modules):
        mine, theirs = median_of(swiftyolo, layer), median_of(openvino, layer)
        ratio = f"{mine / theirs:6.2f}" if theirs > 0.05 else "     -"
        print(f"{layer:5d}  {module:<12} {mine:9.2f} {theirs:9.2f} {ratio}")


if __name__ == "__main__":
    main()
