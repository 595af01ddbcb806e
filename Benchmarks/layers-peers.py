#!/usr/bin/env python3
"""SwiftYOLO's time per layer beside a peer's (OpenVINO or ONNX Runtime), measured in alternation: where the engine loses.

`peers.py` compares whole forward passes. This script splits both engines' passes by the model's top-level
layers (`model.0` … `model.23`, as `swift-yolo bench` prints them), so that a gap to the fastest peer can be
traced to the layers that make it. Each round runs the peer for --runs passes with its own per-node timing on,
summed over the nodes whose name holds `/model.N/`, then `swift-yolo bench --runs R --json` (a process of its
own, so each round pays the bench's load and warm-up); medians over the passes, then over the rounds.

- OpenVINO as peers.py sets it up: the ONNX export on the CPU plugin, INFERENCE_PRECISION_HINT=f32,
  PERFORMANCE_HINT=LATENCY, NUM_STREAMS=1, INFERENCE_NUM_THREADS=N; its performance counters (PERF_COUNT).
- ONNX Runtime as peers.py sets it up: the CPU provider, ORT_ENABLE_ALL, intra_op_num_threads=N, sequential;
  its profiler (`SessionOptions.enable_profiling`: each node's kernel time), a new session each round.

The peer runs the ONNX export with the one-to-many head ([1, 84, 8400]); for YOLO26n `swift-yolo bench` runs
the one-to-one head, the same layers with other weights.

Needs what `python3 Benchmarks/peers.py --models MODEL` leaves behind: the venv Benchmarks/.venv-peers and the
export Benchmarks/.work/MODEL.onnx (it re-runs itself in that venv).

  python3 Benchmarks/layers-peers.py --engine onnxruntime --model yolo26n --threads 1 --rounds 6
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
import tempfile
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
VENV_PYTHON = BENCHMARKS / ".venv-peers" / "bin" / "python"
LAYER = re.compile(r"/model\.(\d+)/")


def layer_of(node_name: str) -> int:
    """The top-level layer a node belongs to, -1 for none (a layout reorder the peer inserted)."""
    match = LAYER.search(node_name)
    return int(match.group(1)) if match else -1


def medians(totals: list[float], layers: dict[int, list[float]]) -> tuple[float, dict[int, float]]:
    return statistics.median(totals), {layer: statistics.median(values) for layer, values in layers.items()}


def openvino_round(compiled, feed, runs: int) -> tuple[float, dict[int, float]]:
    """Median pass time and median time per layer (ms) over `runs` passes."""
    request = compiled.create_infer_request()
    for _ in range(2):
        request.infer(feed)
    totals, layers = [], collections.defaultdict(list)
    for _ in range(runs):
        start = time.perf_counter()
        request.infer(feed)
        totals.append((time.perf_counter() - start) * 1e3)
        per_layer = collections.defaultdict(float)
        for node in request.profiling_info:
            per_layer[layer_of(node.node_name)] += node.real_time.total_seconds() * 1e3
        for layer, ms in per_layer.items():
            layers[layer].append(ms)
    return medians(totals, layers)


def onnxruntime_round(ort, onnx: Path, threads: int, feed, runs: int) -> tuple[float, dict[int, float]]:
    """The same from a new profiling session: its node events grouped by the pass (`model_run`) they fall in."""
    with tempfile.TemporaryDirectory() as folder:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.enable_profiling = True
        options.profile_file_prefix = str(Path(folder) / "profile")
        session = ort.InferenceSession(str(onnx), options, providers=["CPUExecutionProvider"])
        inputs = {session.get_inputs()[0].name: feed}
        warmup = 2
        for _ in range(warmup):
            session.run(None, inputs)
        totals = []
        for _ in range(runs):
            start = time.perf_counter()
            session.run(None, inputs)
            totals.append((time.perf_counter() - start) * 1e3)
        events = json.loads(Path(session.end_profiling()).read_text())
    passes = sorted((event["ts"], event["ts"] + event["dur"]) for event in events
                    if event.get("cat") == "Session" and event.get("name") == "model_run")[warmup:]
    per_pass = [collections.defaultdict(float) for _ in passes]
    for event in events:
        if event.get("cat") != "Node" or not event["name"].endswith("_kernel_time"):
            continue
        for index, (begin, end) in enumerate(passes):
            if begin <= event["ts"] <= end:
                per_pass[index][layer_of(event["name"])] += event["dur"] / 1e3
                break
    layers = collections.defaultdict(list)
    for per_layer in per_pass:
        for layer, ms in per_layer.items():
            layers[layer].append(ms)
    return medians(totals, layers)


def swiftyolo_round(binary: str, weights: Path, threads: int, runs: int) -> tuple[float, dict[int, float], list[str]]:
    """`swift-yolo bench --json`: median pass time, per-layer medians (ms) and the layers' module names."""
    done = subprocess.run([binary, "bench", "--model", str(weights), "--threads", str(threads), "--runs", str(runs),
                           "--warmup", "2", "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"layers-peers: {binary} bench failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    layers = {layer["index"]: layer["median_ms"] for layer in report["layers"]}
    return report["median_ms"], layers, [layer["module"] for layer in report["layers"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=["openvino", "onnxruntime"], default="openvino")
    parser.add_argument("--model", default="yolo11n", help="Weights/MODEL.swyolo and Benchmarks/.work/MODEL.onnx")
    parser.add_argument("--binary", default=".build/release/swift-yolo", help="the swift-yolo to time")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=6, help="rounds of alternation (default 6)")
    parser.add_argument("--runs", type=int, default=8, help="passes per engine per round (default 8)")
    args = parser.parse_args()
    onnx, weights = BENCHMARKS / ".work" / f"{args.model}.onnx", ROOT / "Weights" / f"{args.model}.swyolo"
    if not onnx.exists() or not VENV_PYTHON.exists():
        sys.exit(f"layers-peers: run `python3 Benchmarks/peers.py --models {args.model} --engines swiftyolo,{args.engine}` "
                 f"first (it makes Benchmarks/.venv-peers and Benchmarks/.work/{args.model}.onnx)")
    if Path(sys.prefix).resolve() != VENV_PYTHON.parent.parent.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), __file__, *sys.argv[1:]])

    import numpy as np

    x = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
    if args.engine == "openvino":
        import openvino as ov

        core = ov.Core()
        compiled = core.compile_model(core.read_model(str(onnx)), "CPU", {
            "INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": "1",
            "INFERENCE_NUM_THREADS": str(args.threads), "PERF_COUNT": "YES"})
        peer_round, name = (lambda: openvino_round(compiled, {0: x}, args.runs)), "OpenVINO"
    else:
        import onnxruntime as ort

        peer_round, name = (lambda: onnxruntime_round(ort, onnx, args.threads, x, args.runs)), "ONNX Runtime"

    peer, swiftyolo, modules = [], [], []
    for _ in range(args.rounds):
        peer.append(peer_round())
        total, layers, modules = swiftyolo_round(args.binary, weights, args.threads, args.runs)
        swiftyolo.append((total, layers))

    def median_of(rounds, layer):
        return statistics.median(per_layer.get(layer, 0.0) for _, per_layer in rounds)

    peer_total = statistics.median(total for total, _ in peer)
    sy_total = statistics.median(total for total, _ in swiftyolo)
    print(f"{args.model} 640×640, {args.threads} thread(s), {args.rounds} rounds × {args.runs} passes, medians in ms")
    print(f"forward pass: SwiftYOLO {sy_total:.2f}, {name} {peer_total:.2f} ({sy_total / peer_total:.2f}×)")
    print(f"({name}'s per-layer sums leave out the time between its nodes; {median_of(peer, -1):.2f} ms of its nodes "
          "are in no layer: its reorders into and out of its channel-blocked layout)")
    print(f"{'layer':>5}  {'module':<12} {'SwiftYOLO':>9} {name:>12} {'ratio':>6}")
    for layer, module in enumerate(modules):
        mine, theirs = median_of(swiftyolo, layer), median_of(peer, layer)
        ratio = f"{mine / theirs:6.2f}" if theirs > 0.05 else "     -"
        print(f"{layer:5d}  {module:<12} {mine:9.2f} {theirs:12.2f} {ratio}")


if __name__ == "__main__":
    main()
