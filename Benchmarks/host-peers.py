#!/usr/bin/env python3
"""The static `swift-yolo` against the peers that a host already has, on a host with no Swift toolchain.

`peers.py` (`make bench-peers`) builds SwiftYOLO's worker, exports the models with Ultralytics and checks
every engine's output against PyTorch: it needs the toolchain, PyTorch and a network. This script needs
only what a minimal host has or can be handed as files: `dist/swift-yolo` (`make static`), a weights
file, Ultralytics' ONNX export of the same model (`Benchmarks/.work/NAME.onnx`, written by `peers.py`),
and python3 with numpy and whichever of ONNX Runtime, MNN and OpenVINO import (MNN's converter turns
the ONNX file into an .mnn file when no --mnn is given). It times, in alternation, round by round:

  - SwiftYOLO: one `swift-yolo bench --json --runs R --warmup 2` process per turn (the kernel set chosen
    at run time; --kernels adds turns with a set forced through SWIFTYOLO_KERNELS, reported without a
    ratio: the peers here run their own choice of kernels), its median;
  - each peer: R forward passes in this process, their median, set up by peers.py's `engine_forward` (the
    same settings as `make bench-peers`).

The order rotates every round, and a pause between turns lets the previous engine's threads go idle.
Inputs: the image letterboxed to 640 × 640 as Ultralytics does (OpenCV, when it imports), else uniform
noise (the forward pass's time does not depend on the pixels). Prints a Markdown report and writes its
JSON (every sample) to --out.

  python3 Benchmarks/host-peers.py --binary dist/swift-yolo --threads 1,2 --rounds 14 --kernels avx2
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402  (the engines' settings, one definition for both scripts)

IMGSZ = peers.IMGSZ


def letterboxed(image: Path):
    """`[1, 3, 640, 640]` float32 RGB in [0, 1]: the image resized to fit and centred on gray 114."""
    import numpy as np
    try:
        import cv2
        pixels = cv2.imread(str(image))
        if pixels is None:
            raise ValueError(f"{image}: not an image OpenCV reads")
        height, width = pixels.shape[:2]
        scale = min(IMGSZ / height, IMGSZ / width)
        resized = cv2.resize(pixels, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_LINEAR)
        canvas = np.full((IMGSZ, IMGSZ, 3), 114, np.uint8)
        top, left = (IMGSZ - resized.shape[0]) // 2, (IMGSZ - resized.shape[1]) // 2
        canvas[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
        return np.ascontiguousarray(canvas[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255, "letterboxed"
    except Exception as error:  # no OpenCV here, or an unreadable image: noise times the same
        return np.random.default_rng(0).random((1, 3, IMGSZ, IMGSZ), dtype=np.float32), f"noise ({error})"


def peer_forwards(threads: int, x, onnx: Path, mnn: Path | None) -> dict:
    """A forward pass per importable peer, set up by `peers.py`'s own `engine_forward`, and warmed up."""
    artifacts = {"onnxruntime": onnx, "mnn": mnn, "openvino": onnx}
    modules = {"onnxruntime": "onnxruntime", "mnn": "MNN", "openvino": "openvino"}
    forwards = {engine: peers.engine_forward(engine, str(artifacts[engine]), threads, x)[0]
                for engine in ("onnxruntime", "mnn", "openvino")
                if artifacts[engine] is not None and importlib.util.find_spec(modules[engine])}
    for forward in forwards.values():
        for _ in range(5):
            forward()
    return forwards


def mnn_model(onnx: Path, given: Path | None, folder: Path) -> Path | None:
    """The .mnn file: given, or converted from the ONNX file by MNN's own converter (fp32 weights)."""
    if given is not None or not importlib.util.find_spec("MNN"):
        return given
    from MNN.tools import mnnconvert
    converted = folder / (onnx.stem + ".mnn")
    arguments = sys.argv
    sys.argv = ["mnnconvert", "-f", "ONNX", "--modelFile", str(onnx), "--MNNModel", str(converted), "--bizCode", "host-peers"]
    try:
        mnnconvert.main()
    finally:
        sys.argv = arguments
    return converted if converted.exists() else None


def swift_turn(binary: Path, model: Path, threads: int, runs: int, kernels: str | None) -> tuple[float, str]:
    """One `bench` process's median (ms) and the kernel set it ran."""
    environment = {key: value for key, value in os.environ.items() if key != "SWIFTYOLO_KERNELS"}
    if kernels:
        environment["SWIFTYOLO_KERNELS"] = kernels
    done = subprocess.run([str(binary), "bench", "--json", "--model", str(model), "--threads", str(threads),
                           "--runs", str(runs), "--warmup", "2"], env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"host-peers.py: {binary} bench failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    return report["median_ms"], report["kernels"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, default=Path("dist/swift-yolo"))
    parser.add_argument("--model", type=Path, default=Path("Weights/yolo11n.swyolo"))
    parser.add_argument("--onnx", type=Path, default=Path("Benchmarks/.work/yolo11n.onnx"))
    parser.add_argument("--mnn", type=Path, help="MNN's model (default: converted from --onnx when MNN imports)")
    parser.add_argument("--image", type=Path, default=Path("../shared/images/bus.jpg"))
    parser.add_argument("--threads", default="1,2", help="thread counts, e.g. 1,2")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=10, help="forward passes per turn")
    parser.add_argument("--kernels", default="", help="kernel sets to time as well, forced, e.g. avx2")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between turns")
    parser.add_argument("--out", type=Path, default=Path("host-peers.json"))
    args = parser.parse_args()
    for path in (args.binary, args.model, args.onnx):
        if not path.exists():
            sys.exit(f"host-peers.py: {path}: no such file")

    x, input_kind = letterboxed(args.image)
    machine = peers.machine_info() | {"python": platform.python_version()}
    report = {"date": time.strftime("%Y-%m-%d"), "machine": machine, "input": input_kind, "rounds": args.rounds,
              "runs": args.runs, "versions": {}, "results": {}}
    with tempfile.TemporaryDirectory() as folder:
        mnn = mnn_model(args.onnx, args.mnn, Path(folder))
        for module in ("numpy", "onnxruntime", "MNN", "openvino"):
            if importlib.util.find_spec(module):
                imported = importlib.import_module(module)  # MNN says its version through a function
                report["versions"][module] = getattr(imported, "__version__", None) or imported.version()
        for threads in [int(t) for t in args.threads.split(",")]:
            forwards = peer_forwards(threads, x, args.onnx, mnn)
            swift = ["swiftyolo"] + [f"swiftyolo-{k}" for k in args.kernels.split(",") if k]
            engines = swift + list(forwards)
            samples = {engine: [] for engine in engines}
            chosen = None
            for round_index in range(args.rounds):
                shift = round_index % len(engines)
                for engine in engines[shift:] + engines[:shift]:
                    if engine in swift:
                        forced = engine.partition("-")[2] or None
                        median, kernels = swift_turn(args.binary, args.model, threads, args.runs, forced)
                        chosen = chosen if forced else kernels
                    else:
                        times = []
                        for _ in range(args.runs):
                            start = time.perf_counter()
                            forwards[engine]()
                            times.append((time.perf_counter() - start) * 1e3)
                        median = statistics.median(times)
                    samples[engine].append(median)
                    time.sleep(args.pause)
            report["results"][str(threads)] = {"kernels": chosen, "samples": samples}
    args.out.write_text(json.dumps(report, indent=1))
    print(markdown(report))


def markdown(report: dict) -> str:
    """The report's table: medians and minima of the turns, and SwiftYOLO ÷ the fastest peer."""
    m = report["machine"]
    lines = [f"# SwiftYOLO (static binary) against the host's peers, {report['date']}", "",
             f"{m['cpu']}, {m['cores']} CPUs, {' '.join(m['instruction_sets'])}; kernel {m['kernel']}, Python {m['python']}; "
             f"{', '.join(f'{k} {v}' for k, v in report['versions'].items())}; input {report['input']}; "
             f"{report['rounds']} rounds of {report['runs']} passes, medians of the rounds' medians (ms).", "",
             "| threads | engine | median | min | ÷ fastest peer | paired |", "|---:|---|---:|---:|---:|---:|"]
    for threads, result in report["results"].items():
        samples = result["samples"]
        peers = [engine for engine in samples if not engine.startswith("swiftyolo")]
        fastest = [min(values) for values in zip(*(samples[p] for p in peers))] if peers else []
        best = min((statistics.median(samples[p]) for p in peers), default=None)
        for engine, values in samples.items():
            name = f"SwiftYOLO ({result['kernels']})" if engine == "swiftyolo" else engine.replace("swiftyolo-", "SwiftYOLO, forced ")
            ratio = paired = ""
            if engine == "swiftyolo" and best:
                ratio = f"{statistics.median(values) / best:.3f}×"
                paired = f"{statistics.median(v / f for v, f in zip(values, fastest)):.3f}×"
            lines.append(f"| {threads} | {name} | {statistics.median(values):.1f} | {min(values):.1f} | {ratio} | {paired} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
