#!/usr/bin/env python3
"""SwiftYOLO side by side with ONNX Runtime, OpenVINO, MNN, ncnn and PyTorch on YOLO11n and YOLO26n at 640×640 (`make bench-peers`).

What it does:
  1. Sets up a private virtual environment, Benchmarks/.venv-peers, from Benchmarks/requirements-peers.txt
     (PyPI only: ultralytics with torch, onnxruntime, openvino, MNN, ncnn, pnnx, onnx, onnxslim), then runs itself in it.
  2. Exports the reference checkpoint with Ultralytics, as a user would: ONNX (static 640×640, Ultralytics'
     default opset, simplified with onnxslim) and ncnn (through the pnnx package from PyPI), into
     Benchmarks/.work/ (git-ignored); OpenVINO reads that ONNX file, and MNN's converter (`mnnconvert`,
     from the MNN package) turns it into an .mnn file. Builds Benchmarks' `swiftyolo-peer` in release mode.
  3. Prepares one input: bus.jpg letterboxed onto 640×640 exactly as Ultralytics' predict does, RGB, /255, CHW.
  4. For each thread count, starts one persistent worker process per engine (SwiftYOLO: `swiftyolo-peer`;
     the others: this script in --worker mode), each of which loads its model once, checks its output on the
     input against PyTorch's, and warms up. Then it times them in alternation, A B C D, A B C D, …: each turn
     is --runs back-to-back forward passes on the same input, --rounds turns per engine. A pause between
     turns lets the previous engine's spinning threads go idle so no engine runs beside another.
  5. Prints a Markdown table (median, min, p90 per engine and thread count, and ratios to SwiftYOLO: of the
     medians, and paired round by round, then SwiftYOLO against the fastest peer) with the
     date, the CPU and every version, and writes it to Benchmarks/results/peers-DATE-MODEL.md with a JSON twin
     (every sample) beside it.
  Steps 2–5 run once per model of --models (default yolo11n,yolo26n: ../shared/weights/NAME.pt, Weights/NAME.swyolo),
  and for a model with an end-to-end head (YOLO26n) twice, once per head as Ultralytics exports it: the default
  export (nms=None: the one-to-many head, [1, 84, 8400], NMS outside) and the nms=False export (the one-to-one head
  with its top-k in the graph, [1, 300, 6]; report NAME-end2end). Ultralytics exports no end-to-end ncnn model, so
  ncnn runs only the first.

Fairness: every engine is timed on the forward pass only (input tensor in memory to head output
[1, 84, 8400]), after warm-up, on the same input, with the same thread count, one at a time. The end-to-end
variant runs the one-to-one head and the top-k selection (k = 300), output [1, 300, 6]: the peers as the nms=False
export has it in the graph, SwiftYOLO the same (`swiftyolo-peer --end2end 1`: the head, then its top-k), PyTorch
the model with `end2end` set:
  SwiftYOLO      DetectionModel(input) — the call `swift-yolo bench` times (ComputeThreads.set(N)).
  ONNX Runtime   InferenceSession.run, CPU provider, intra_op_num_threads=N, inter_op_num_threads=1,
                 sequential execution, all graph optimizations (its defaults otherwise).
  OpenVINO       the ONNX file compiled for the CPU plugin with INFERENCE_PRECISION_HINT=f32 (no bf16/fp16
                 even where the CPU has them), PERFORMANCE_HINT=LATENCY, NUM_STREAMS=1,
                 INFERENCE_NUM_THREADS=N; one InferRequest, infer() per pass.
  MNN            the .mnn file in an Interpreter session on the CPU backend, numThread=N, precision "high"
                 (fp32 throughout: "normal" and "low" let MNN pick lower-precision kernels where the CPU has
                 them); the input copied into the session's tensor and runSession() per pass.
  ncnn           create_extractor + input + extract, opt.num_threads=N, ncnn's default options (as
                 Ultralytics runs it; the input Mat is made once, the output is not converted in the timing).
  PyTorch        the fused model (Conv+BN folded, as Ultralytics predicts) under torch.inference_mode,
                 torch.set_num_threads(N), set_num_interop_threads(1).
Numerics: each engine's head output on the input is compared with PyTorch's (boxes in pixels, scores) and its
detections after Ultralytics' NMS (conf 0.25, IoU 0.7; for an end-to-end output, its rows above conf 0.25) must
match PyTorch's — same classes in the same order, confidences within 0.01, boxes within 1 px — or the engine is
flagged in the report.

Examples:
  python3 Benchmarks/peers.py                                   # 10 rounds × 5 runs, 1 and 2 threads
  python3 Benchmarks/peers.py --runs 3 --rounds 2 --threads 1   # a quick check
  python3 Benchmarks/peers.py --engines swiftyolo,onnxruntime
  python3 Benchmarks/peers.py --models yolo26n
  SWIFTYOLO_KERNELS=avx2 python3 Benchmarks/peers.py --models yolo11n   # SwiftYOLO's AVX2 set on an AVX-512 host
  python3 Benchmarks/peers.py --models yolo11n --isa avx2   # every engine that can be held to AVX2, on an AVX-512 host

An AVX2-only host in miniature (--isa avx2): SwiftYOLO runs its avx2 kernel set (SWIFTYOLO_KERNELS=avx2), OpenVINO
and PyTorch run oneDNN held to AVX2 (ONEDNN_MAX_CPU_ISA=AVX2, and ATEN_CPU_CAPABILITY=avx2 for PyTorch's own
kernels). ONNX Runtime, MNN and ncnn pick their kernels from cpuid with no switch to hold them back. One whose
compiled library has no AVX-512 instruction at all (no zmm register in `objdump -d`; MNN's PyPI wheel, as of 3.6)
runs AVX2 at most anyway and counts as held; the others still run, on the host's full instruction set, are marked
so in the report and are left out of "the fastest peer".
The same core does twice the work per AVX-512 instruction that it does per AVX2 one only where its AVX-512 units
are full width, and its caches and memory are not an AVX2 host's: this measures the kernels, not such a host.
"""
from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
VENV = BENCHMARKS / ".venv-peers"
WORK = BENCHMARKS / ".work"
REQUIREMENTS = BENCHMARKS / "requirements-peers.txt"
SCRATCH = BENCHMARKS / ".build"
PEER_BINARY = SCRATCH / "release" / "swiftyolo-peer"

# What holds each engine to an instruction set (--isa): environment variables it reads at start. An engine not
# listed for an ISA has no such switch and runs on the host's full instruction set.
ISA_CAPS = {
    "avx2": {
        "swiftyolo": {"SWIFTYOLO_KERNELS": "avx2"},
        "openvino": {"ONEDNN_MAX_CPU_ISA": "AVX2"},
        "pytorch": {"ONEDNN_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2"},
    },
}

# The compiled library of each engine whose kernels `--isa avx2` may find free of AVX-512 (module names).
ENGINE_LIBRARIES = {"onnxruntime": "onnxruntime.capi.onnxruntime_pybind11_state", "mnn": "_mnncengine", "ncnn": "ncnn.ncnn"}


@functools.cache  # once per engine, not once per model and head: objdump of a large library takes seconds
def library_has_no_avx512(engine: str) -> bool:
    """Whether the engine's compiled library has no AVX-512 instruction (no zmm register in its disassembly),
    so that it runs AVX2 at most on any host. False where that cannot be read (no objdump, no library)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(ENGINE_LIBRARIES[engine])
    except (KeyError, ImportError, ValueError):
        return False
    if spec is None or not spec.origin or not shutil.which("objdump"):
        return False
    disassembly = subprocess.run(["objdump", "-d", "--no-show-raw-insn", spec.origin], capture_output=True, text=True)
    return disassembly.returncode == 0 and "%zmm" not in disassembly.stdout


ENGINES = ["swiftyolo", "onnxruntime", "openvino", "mnn", "ncnn", "pytorch"]
NAMES = {"swiftyolo": "SwiftYOLO", "onnxruntime": "ONNX Runtime", "openvino": "OpenVINO", "mnn": "MNN", "ncnn": "ncnn",
         "pytorch": "PyTorch"}
IMGSZ = 640


def log(message: str) -> None:
    print(f"peers.py: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------
# Set-up: the virtual environment, the exports, the Swift worker, the input.
# ---------------------------------------------------------------------------------------------------------

def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure_venv_and_reexec(args: argparse.Namespace) -> None:
    """Creates or updates Benchmarks/.venv-peers, then runs this script again inside it."""
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements-installed"
    wanted = REQUIREMENTS.read_text()
    if not python.exists():
        log(f"creating {VENV.relative_to(ROOT)}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if not stamp.exists() or stamp.read_text() != wanted:
        log(f"installing {REQUIREMENTS.relative_to(ROOT)} into {VENV.relative_to(ROOT)} (torch is large: a few minutes)")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "-r", str(REQUIREMENTS)], check=True)
        stamp.write_text(wanted)
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])


def export_models(weights: Path, name: str, engines: list[str], end2end: bool = False) -> tuple[Path, Path, Path, Path]:
    """ONNX and ncnn exports of `weights` by Ultralytics (`WORK/name.*`; with `end2end`, the nms=False ONNX
    export alone in `WORK/name-end2end/`), redone when the checkpoint changes, and MNN's conversion of the
    ONNX file; the ncnn export and the MNN conversion only where `engines` has them. Returns the checkpoint's
    copy beside them too."""
    import hashlib

    folder = WORK / f"{name}-end2end" if end2end else WORK
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    checkpoint = folder / f"{name}.pt"
    onnx_path = folder / f"{name}.onnx"
    ncnn_dir = folder / f"{name}_ncnn_model"
    mnn_path = folder / f"{name}.mnn"
    stamp = folder / ("exports.sha256" if name == "yolo11n" else f"{name}.exports.sha256")
    wants_ncnn, wants_mnn = "ncnn" in engines and not end2end, "mnn" in engines
    ncnn_ready = not wants_ncnn or (ncnn_dir / "model.ncnn.param").exists()
    if stamp.exists() and stamp.read_text() == digest and checkpoint.exists() and onnx_path.exists() and ncnn_ready:
        if wants_mnn:
            convert_to_mnn(onnx_path, mnn_path)
        return checkpoint, onnx_path, ncnn_dir, mnn_path
    shutil.copyfile(weights, checkpoint)
    from ultralytics import YOLO

    log(f"exporting {name} to ONNX (static 640×640, default opset, onnxslim{', nms=False' if end2end else ''}) with Ultralytics")
    YOLO(str(checkpoint)).export(format="onnx", imgsz=IMGSZ, dynamic=False, simplify=True, verbose=False,
                                 **({"nms": False} if end2end else {}))
    if wants_ncnn:
        log(f"exporting {name} to ncnn (pnnx) with Ultralytics")
        YOLO(str(checkpoint)).export(format="ncnn", imgsz=IMGSZ, verbose=False)
    if not onnx_path.exists() or not (not wants_ncnn or (ncnn_dir / "model.ncnn.param").exists()):
        sys.exit("peers.py: an export failed (see above)")
    stamp.write_text(digest)
    mnn_path.unlink(missing_ok=True)
    if wants_mnn:
        convert_to_mnn(onnx_path, mnn_path)
    return checkpoint, onnx_path, ncnn_dir, mnn_path


def convert_to_mnn(onnx_path: Path, mnn_path: Path) -> None:
    """MNN's own converter on the ONNX export (fp32 weights: no --fp16, no quantization)."""
    if mnn_path.exists() and mnn_path.stat().st_mtime >= onnx_path.stat().st_mtime:
        return
    log("converting the ONNX export to MNN (mnnconvert)")
    converter = Path(sys.executable).parent / "mnnconvert"
    done = subprocess.run([str(converter), "-f", "ONNX", "--modelFile", str(onnx_path), "--MNNModel", str(mnn_path),
                           "--bizCode", "swiftyolo-peers"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0 or not mnn_path.exists():
        sys.exit(f"{done.stdout}\npeers.py: mnnconvert failed (above)")


def build_swift_worker(swift_flags: str) -> None:
    log(f"building swiftyolo-peer (release{', ' + swift_flags if swift_flags else ''})")
    # A target of the main package, declared only with SWIFTYOLO_BENCHMARKS=1 (it uses the engine's `package` API).
    build = subprocess.run(["swift", "build", "-c", "release", *swift_flags.split(), "--package-path", str(ROOT),
                            "--scratch-path", str(SCRATCH), "--product", "swiftyolo-peer"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env={**os.environ, "SWIFTYOLO_BENCHMARKS": "1"})
    if build.returncode != 0:
        sys.exit(f"{build.stdout}\npeers.py: building swiftyolo-peer failed (above)")


def prepare_input(image: Path) -> Path:
    """`image` letterboxed onto 640×640 as Ultralytics' predict prepares it: float32 RGB CHW in [0, 1]."""
    import cv2
    import numpy as np
    from ultralytics.data.augment import LetterBox

    bgr = cv2.imread(str(image))
    if bgr is None:
        sys.exit(f"peers.py: cannot read {image}")
    boxed = LetterBox(new_shape=(IMGSZ, IMGSZ), auto=False, stride=32)(image=bgr)
    chw = np.ascontiguousarray(boxed[..., ::-1].transpose(2, 0, 1), dtype=np.float32) / 255
    path = WORK / "input-640.f32"
    chw[None].astype("<f4").tofile(path)
    return path


# ---------------------------------------------------------------------------------------------------------
# Workers: one process per engine, one JSON line per command ("run K", "dump PATH", "quit").
# ---------------------------------------------------------------------------------------------------------

def engine_forward(engine: str, artifact: str, threads: int, x, end2end: bool = False):
    """`(forward, to_numpy)` for a Python engine with peers.py's settings: `forward()` runs one pass on `x`
    (`[1, 3, 640, 640]` float32) and returns the engine's head output, `to_numpy` turns that into an array.
    (`host-peers.py` uses it too.)"""
    import numpy as np

    if engine == "onnxruntime":
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(artifact, options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name

        def forward():
            return session.run(None, {name: x})[0]

        def to_numpy(y):
            return y

    elif engine == "openvino":
        import openvino as ov

        core = ov.Core()
        compiled = core.compile_model(core.read_model(artifact), "CPU", {
            "INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": "1",
            "INFERENCE_NUM_THREADS": str(threads)})
        request = compiled.create_infer_request()

        def forward():
            request.infer({0: x})
            return request.get_output_tensor(0).data

        def to_numpy(y):
            return np.array(y)

    elif engine == "mnn":
        import MNN

        interpreter = MNN.Interpreter(artifact)
        session = interpreter.createSession({"backend": "CPU", "numThread": threads, "precision": "high"})
        session_input = interpreter.getSessionInput(session)
        host_input = MNN.Tensor((1, 3, IMGSZ, IMGSZ), MNN.Halide_Type_Float, np.ascontiguousarray(x),
                                MNN.Tensor_DimensionType_Caffe)

        def forward():
            session_input.copyFrom(host_input)
            interpreter.runSession(session)
            return interpreter.getSessionOutput(session)

        def to_numpy(y):
            host = MNN.Tensor(y.getShape(), MNN.Halide_Type_Float, np.zeros(y.getShape(), dtype=np.float32),
                              MNN.Tensor_DimensionType_Caffe)
            y.copyToHostTensor(host)
            return np.array(host.getNumpyData(), dtype=np.float32).reshape(y.getShape())

    elif engine == "ncnn":
        import ncnn

        net = ncnn.Net()
        net.opt.use_vulkan_compute = False
        net.opt.num_threads = threads
        param = Path(artifact) / "model.ncnn.param"
        net.load_param(str(param))
        net.load_model(str(param.with_suffix(".bin")))
        input_name = net.input_names()[0]
        output_name = sorted(net.output_names())[0]
        mat = ncnn.Mat(x[0])

        def forward():
            with net.create_extractor() as extractor:
                extractor.input(input_name, mat)
                return extractor.extract(output_name)[1]

        def to_numpy(y):
            return np.array(y)[None]

    elif engine == "pytorch":
        import torch
        from ultralytics import YOLO

        torch.set_num_threads(threads)
        torch.set_num_interop_threads(1)
        model = YOLO(artifact).model
        if end2end:
            model.end2end = True  # the one-to-one head and its top-k, as the nms=False export runs it
        model = model.float().fuse(verbose=False).eval()
        tensor = torch.from_numpy(x)

        def forward():
            with torch.inference_mode():
                y = model(tensor)
            return y[0] if isinstance(y, (list, tuple)) else y

        def to_numpy(y):
            return y.numpy()

    else:
        raise ValueError(f"unknown engine {engine}")
    return forward, to_numpy



def worker_main(args: argparse.Namespace) -> None:
    """A Python engine behind the same line protocol as swiftyolo-peer."""
    # Replies go to the real stdout; anything a library prints (to fd 1 too) goes to stderr.
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    import numpy as np

    threads = args.threads_worker
    x = np.fromfile(args.input, dtype="<f4").reshape(1, 3, IMGSZ, IMGSZ)

    forward, to_numpy = engine_forward(args.worker, args.artifact, threads, x, args.worker_end2end)

    def reply(obj):
        replies.write(json.dumps(obj) + "\n")

    reply({"ready": True, "threads": threads})
    for line in sys.stdin:
        words = line.split(maxsplit=1)
        if not words:
            continue
        if words[0] == "run":
            runs = max(1, int(words[1]) if len(words) > 1 else 1)
            times = []
            cpu_start = time.process_time()  # every thread of the process
            for _ in range(runs):
                start = time.perf_counter_ns()
                y = forward()
                times.append((time.perf_counter_ns() - start) / 1e6)
                del y
            reply({"ms": times, "cpu_ms": (time.process_time() - cpu_start) * 1e3})
        elif words[0] == "dump":
            y = to_numpy(forward())
            np.ascontiguousarray(y, dtype="<f4").tofile(words[1].strip())
            reply({"shape": list(y.shape)})
        elif words[0] == "quit":
            break
        else:
            reply({"error": f"unknown command {words[0]}"})


class Worker:
    """A running engine process."""

    def __init__(self, engine: str, threads: int, command: list[str], log_path: Path, isa: str | None = None):
        self.engine = engine
        self.threads = threads
        env = dict(os.environ)
        env.update(ISA_CAPS.get(isa, {}).get(engine, {}))
        # Thread pools that an engine does not size itself follow its own count; OpenBLAS (numpy's, in the
        # Python engines' processes) stays single-threaded.
        env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS="1",
                   PYTHONUNBUFFERED="1", YOLO_VERBOSE="False")
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                        text=True, bufsize=1, env=env, cwd=ROOT)
        ready = self.receive()
        if not ready.get("ready"):
            raise RuntimeError(f"{engine} did not start: {ready}")
        self.load_ms = ready.get("load_ms")
        self.kernels = ready.get("kernels")  # SwiftYOLO's kernel set

    def receive(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            raise RuntimeError(f"{self.engine} worker exited ({self.process.returncode}); see {self.log.name}")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{self.engine}: {reply['error']}")
        return reply

    def command(self, text: str) -> dict:
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        return self.receive()

    def run(self, runs: int) -> tuple[list[float], float]:
        """Wall-clock milliseconds of each pass, and the process's CPU milliseconds over all of them."""
        reply = self.command(f"run {runs}")
        return reply["ms"], reply["cpu_ms"]

    def dump(self, path: Path):
        import numpy as np

        shape = self.command(f"dump {path}")["shape"]
        return np.fromfile(path, dtype="<f4").reshape(shape)

    def close(self) -> None:
        try:
            self.process.stdin.write("quit\n")
            self.process.stdin.close()
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()
        self.log.close()


def worker_command(engine: str, threads: int, input_path: Path, artifacts: dict[str, Path], model: Path,
                   end2end: bool) -> list[str]:
    if engine == "swiftyolo":
        return [str(PEER_BINARY), "--model", str(model), "--input", str(input_path),
                "--shape", f"1,3,{IMGSZ},{IMGSZ}", "--threads", str(threads), "--end2end", "1" if end2end else "0"]
    return [sys.executable, str(Path(__file__).resolve()), "--worker", engine, "--threads-worker", str(threads),
            "--input", str(input_path), "--artifact", str(artifacts[engine])] + (["--worker-end2end"] if end2end else [])


# ---------------------------------------------------------------------------------------------------------
# Numerics: each engine's output against PyTorch's.
# ---------------------------------------------------------------------------------------------------------

def has_end2end_head(weights: Path) -> bool:
    """Whether an Ultralytics checkpoint has an end-to-end (one-to-one) head (YOLO26)."""
    from ultralytics import YOLO

    return getattr(YOLO(str(weights)).model.model[-1], "one2one_cv2", None) is not None


def detections(head):
    """Ultralytics' NMS (predict defaults: conf 0.25, IoU 0.7) on a [1, 84, N] head output, or the rows above
    conf 0.25 of an end-to-end [1, 300, 6] output: rows x1 y1 x2 y2 conf cls."""
    import torch
    from ultralytics.utils.nms import non_max_suppression

    return non_max_suppression(torch.from_numpy(head.copy()), conf_thres=0.25, iou_thres=0.7)[0].numpy()


def compare(head, reference, names) -> dict:
    import numpy as np

    ours, theirs = detections(head), detections(reference)
    same = head.shape == reference.shape and len(ours) == len(theirs) and all(
        int(a[5]) == int(b[5]) and abs(a[4] - b[4]) <= 0.01 and np.abs(a[:4] - b[:4]).max() <= 1.0
        for a, b in zip(ours, theirs))
    if head.shape[-1] == 6:  # end-to-end rows: near-equal scores may swap rows, so compare the detections
        pairs = list(zip(ours, theirs)) if same else []
        boxes = max((float(np.abs(a[:4] - b[:4]).max()) for a, b in pairs), default=float("nan"))
        scores = max((float(abs(a[4] - b[4])) for a, b in pairs), default=float("nan"))
    else:
        boxes = float(np.abs(head[:, :4] - reference[:, :4]).max())
        scores = float(np.abs(head[:, 4:] - reference[:, 4:]).max())
    return {
        "boxes_max_abs_px": boxes,
        "scores_max_abs": scores,
        "detections": [{"class": names[int(d[5])], "confidence": round(float(d[4]), 3),
                        "box": [round(float(v), 1) for v in d[:4]]} for d in ours],
        "matches_pytorch": bool(same),
    }


def pytorch_reference(weights: Path, input_path: Path, end2end: bool):
    import numpy as np
    import torch
    from ultralytics import YOLO

    model = YOLO(str(weights)).model
    if end2end:
        model.end2end = True
    model = model.float().fuse(verbose=False).eval()
    x = torch.from_numpy(np.fromfile(input_path, dtype="<f4").reshape(1, 3, IMGSZ, IMGSZ))
    with torch.inference_mode():
        y = model(x)
    y = y[0] if isinstance(y, (list, tuple)) else y
    return y.numpy().copy(), model.names


# ---------------------------------------------------------------------------------------------------------
# The run and the report.
# ---------------------------------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def machine_info() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    flags: set[str] = set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    wanted = ["avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_vnni", "avx512_bf16", "amx_tile"]
    instruction_sets = [flag.upper() for flag in wanted if flag in flags]
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "os": platform.platform(terse=True),
            "instruction_sets": instruction_sets}


def versions() -> dict:
    from importlib import metadata

    found = {"python": platform.python_version()}
    for package in ["ultralytics", "torch", "onnxruntime", "openvino", "MNN", "ncnn", "pnnx", "onnx", "onnxslim", "numpy"]:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    try:
        found["swift"] = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        found["swift"] = None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        found["swiftyolo"] = commit + ("+uncommitted" if dirty else "") if commit else None
    except OSError:
        found["swiftyolo"] = None
    return found


def onnx_opset(path: Path) -> int | None:
    try:
        import onnx

        model = onnx.load(str(path), load_external_data=False)
        return max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    except Exception:
        return None


def markdown(report: dict) -> str:
    m, v, s = report["machine"], report["versions"], report["settings"]
    kernels = next((r.get("kernels") for r in report["results"] if r["engine"] == "swiftyolo"), None)
    lines = [
        f"# SwiftYOLO and its peers: {report['model_name']} at {IMGSZ}×{IMGSZ}",
        "",
        f"- date: {report['date']}",
        f"- machine: {m['cpu']}, {m['cores']} cores ({', '.join(m.get('instruction_sets') or ['no AVX2'])}), {m['os']}; "
        f"load average {report['load_before']} before, "
        f"{report['load_after']} after",
        *([f"- held to {s['isa'].upper()} (--isa {s['isa']}): "
           + ", ".join([NAMES[e] + " (" + ", ".join(f"{k}={v}" for k, v in ISA_CAPS[s['isa']][e].items()) + ")"
                        for e in s["engines"] if e in ISA_CAPS[s["isa"]]]
                       + [f"{NAMES[e]} (its library has no AVX-512 instruction)" for e in s["isa_held_by_build"]])
           + "; on the host's full instruction set, with no switch to hold them back: "
           + (", ".join(NAMES[e] for e in s["engines"] if e not in ISA_CAPS[s["isa"]] and e not in s["isa_held_by_build"])
              or "none")
           + " (marked †, and left out of the fastest peer)"] if s.get("isa") else []),
        f"- SwiftYOLO {v['swiftyolo']} ({v['swift']}{'; ' + s['swift_flags'] if s['swift_flags'] else ''}; kernel set "
        f"{kernels or '?'}, {'forced by SWIFTYOLO_KERNELS' if s.get('swiftyolo_kernels') else 'the run-time choice'}); ONNX Runtime {v['onnxruntime']} (ONNX opset "
        f"{report['onnx_opset']}, onnxslim {v['onnxslim']}); OpenVINO {v['openvino']}; MNN {v['MNN']}; ncnn {v['ncnn']} (pnnx {v['pnnx']}); "
        f"PyTorch {v['torch']}; Ultralytics {v['ultralytics']}; Python {v['python']}",
        f"- method: `Benchmarks/peers.py {s['command_line']}` — {s['rounds']} rounds × {s['runs']} runs per engine "
        f"after {s['warmup']} warm-up run{'' if s['warmup'] == 1 else 's'}, engines in alternation ({', '.join(NAMES[e] for e in s['engines'])}, "
        f"then again), forward pass only (input tensor to the "
        + ("[1, 300, 6] end-to-end output: the one-to-one head and its top-k, as Ultralytics exports it), "
           if report.get("end2end") else "[1, 84, 8400] head output), ")
        + 
        f"{s['image']} letterboxed to {IMGSZ}×{IMGSZ}",
        "",
        "| engine | threads | median ms | min ms | p90 ms | ÷ SwiftYOLO | ÷ SwiftYOLO by round | CPU ÷ wall | numerics vs PyTorch |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in report["results"]:
        ratio = f"{row['ratio_to_swiftyolo']:.2f}×" if row.get("ratio_to_swiftyolo") else "–"
        paired = f"{row['paired_ratio_to_swiftyolo']:.2f}×" if row.get("paired_ratio_to_swiftyolo") else "–"
        check = row["numerics"]
        if check is None:
            numerics = "–"
        else:
            numerics = ("same detections" if check["matches_pytorch"] else "**DIFFERENT detections**") + \
                f"; boxes ±{check['boxes_max_abs_px']:.2g} px, scores ±{check['scores_max_abs']:.2g}"
        mark = " †" if row.get("isa_capped") is False else ""
        lines.append(f"| {NAMES[row['engine']]}{mark} | {row['threads']} | {row['median_ms']:.1f} | {row['min_ms']:.1f} | "
                     f"{row['p90_ms']:.1f} | {ratio} | {paired} | {row['cpu_over_wall']:.2f} | {numerics} |")
    lines += [
        "",
        "÷ SwiftYOLO is the engine's median over SwiftYOLO's at the same thread count (above 1: SwiftYOLO is faster). "
        "÷ SwiftYOLO by round pairs the turns of one round, which ran seconds apart: the median over the rounds of the "
        "engine's median over SwiftYOLO's in that round. Where the machine's speed drifts during the run (another "
        "guest on the host, say), the drift hits both turns of a round alike and the pooled medians of two engines "
        "can fall in different stretches of it; the paired ratio does not mix them. "
        "CPU ÷ wall is the engine process's CPU time over its timed wall-clock time: the threads it kept busy on "
        "average (at most the thread count if it keeps to it; well under it when it waits or the machine is busy). "
        "Numerics: the engine's head output on this input against PyTorch's (largest absolute difference), and its "
        "detections after Ultralytics' NMS (conf 0.25, IoU 0.7): the same classes in the same order, confidences "
        "within 0.01 and boxes within 1 px of PyTorch's.",
    ]
    for threads in report["settings"]["threads"]:
        rows = {r["engine"]: r for r in report["results"] if r["threads"] == threads}
        peers = [r for e, r in rows.items() if e != "swiftyolo" and r.get("isa_capped") is not False]
        if "swiftyolo" in rows and peers:
            best = min(peers, key=lambda r: r["median_ms"])
            held = f" held to {s['isa'].upper()}" if s.get("isa") else ""
            lines += ["", f"{threads} thread{'s' if threads > 1 else ''}: the fastest peer{held} is {NAMES[best['engine']]} "
                      f"({best['median_ms']:.1f} ms); SwiftYOLO ÷ it: {rows['swiftyolo']['median_ms'] / best['median_ms']:.2f}×."]
    reference = next((r["numerics"]["detections"] for r in report["results"] if r["numerics"]), None)
    if reference:
        lines += ["", "Detections on the input (letterboxed pixels): " +
                  ", ".join(f"{d['class']} {d['confidence']:.3f}" for d in reference) + "."]
    return "\n".join(lines) + "\n"


def run_benchmark(args: argparse.Namespace, name: str, weights: Path, model: Path, end2end: bool = False) -> bool:
    """Benchmarks one model (with `end2end`, its end-to-end head); returns whether every engine matched PyTorch."""
    weights = weights.resolve()
    model = model.resolve()
    image = Path(args.image).resolve()
    engines = [e for e in args.engines if not (end2end and e == "ncnn")]  # no end-to-end ncnn export
    if "swiftyolo" in engines:
        if not model.exists():
            sys.exit(f"peers.py: {model} not found: run `make weights` first")
        if not args.no_build:
            build_swift_worker(args.swift_flags)
            args.no_build = True  # once for every model
    checkpoint, onnx_path, ncnn_dir, mnn_path = export_models(weights, name, engines, end2end)
    input_path = prepare_input(image)
    artifacts = {"onnxruntime": onnx_path, "openvino": onnx_path, "mnn": mnn_path, "ncnn": ncnn_dir,
                 "pytorch": checkpoint}
    reference, names = pytorch_reference(checkpoint, input_path, end2end)
    title = f"{name}-end2end" if end2end else name

    logs = WORK / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    load_before = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"
    held_by_build = [e for e in engines if args.isa == "avx2" and e not in ISA_CAPS["avx2"] and library_has_no_avx512(e)]
    results = []
    for threads in args.threads:
        workers: dict[str, Worker] = {}
        numerics: dict[str, dict] = {}
        try:
            for engine in engines:
                log(f"{threads} thread{'s' if threads > 1 else ''}: starting {NAMES[engine]}")
                worker = Worker(engine, threads, worker_command(engine, threads, input_path, artifacts, model, end2end),
                                logs / f"{title}-{engine}-{threads}t.log", args.isa)
                workers[engine] = worker
                numerics[engine] = compare(worker.dump(WORK / f"output-{title}-{engine}.f32"), reference, names)
                if not numerics[engine]["matches_pytorch"]:
                    log(f"WARNING: {NAMES[engine]}'s detections differ from PyTorch's: {numerics[engine]['detections']}")
                if args.warmup:
                    worker.run(args.warmup)
            samples = {engine: [] for engine in engines}
            round_medians = {engine: [] for engine in engines}
            cpu_ms = {engine: 0.0 for engine in engines}
            for round_index in range(args.rounds):
                for engine in engines:
                    time.sleep(args.pause)
                    times, cpu = workers[engine].run(args.runs)
                    samples[engine].extend(times)
                    cpu_ms[engine] += cpu
                    round_medians[engine].append(statistics.median(times))
                log(f"{threads}t round {round_index + 1}/{args.rounds}: " +
                    ", ".join(f"{NAMES[e]} {round_medians[e][-1]:.1f}" for e in engines) + " ms")
        finally:
            for worker in workers.values():
                worker.close()
        swift_median = statistics.median(samples["swiftyolo"]) if "swiftyolo" in samples else None
        for engine in engines:
            median = statistics.median(samples[engine])
            paired = statistics.median(ours / swift for ours, swift in zip(round_medians[engine], round_medians["swiftyolo"])) \
                if swift_median else None
            results.append({
                "engine": engine, "threads": threads, "median_ms": median, "min_ms": min(samples[engine]),
                "p90_ms": percentile(samples[engine], 0.9), "max_ms": max(samples[engine]),
                "ratio_to_swiftyolo": median / swift_median if swift_median else None,
                "swiftyolo_over_engine": swift_median / median if swift_median else None,
                # The median over rounds of (this engine's round median / SwiftYOLO's in the same round).
                "paired_ratio_to_swiftyolo": paired,
                # Busy threads on average while timed: about `threads` or less, never more.
                "cpu_over_wall": cpu_ms[engine] / sum(samples[engine]),
                "samples_ms": samples[engine], "round_medians_ms": round_medians[engine],
                "load_ms": workers[engine].load_ms, "kernels": workers[engine].kernels, "numerics": numerics.get(engine),
                # With --isa: whether the engine was held to that instruction set (None without --isa).
                "isa_capped": engine in held_by_build or engine in ISA_CAPS[args.isa] if args.isa else None,
            })
    load_after = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"

    now = datetime.datetime.now(datetime.timezone.utc)
    report = {
        "model_name": title,
        "end2end": end2end,
        "date": now.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "versions": versions(),
        "onnx_opset": onnx_opset(onnx_path),
        "load_before": load_before,
        "load_after": load_after,
        "settings": {"runs": args.runs, "rounds": args.rounds, "warmup": args.warmup, "threads": args.threads,
                     "engines": engines, "pause_s": args.pause, "imgsz": IMGSZ,
                     "image": os.path.relpath(image, ROOT), "weights": os.path.relpath(weights, ROOT),
                     "model": os.path.relpath(model, ROOT), "swift_flags": args.swift_flags,
                     "swiftyolo_kernels": os.environ.get("SWIFTYOLO_KERNELS") if not args.isa else ISA_CAPS[args.isa]["swiftyolo"]["SWIFTYOLO_KERNELS"],
                     "isa": args.isa, "isa_held_by_build": held_by_build,
                     "command_line": shlex.join(sys.argv[1:])},
        "results": results,
    }
    text = markdown(report)
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = report_stem(out, now.strftime('%Y-%m-%d'), f"{title}{'-' + args.isa if args.isa else ''}")
    with open(stem.with_suffix(".md"), "x") as file:
        file.write(text)
    with open(stem.with_suffix(".json"), "x") as file:
        file.write(json.dumps(report, indent=1) + "\n")
    log(f"wrote {os.path.relpath(stem.with_suffix('.md'))} and {os.path.relpath(stem.with_suffix('.json'))}")
    if any(r["numerics"] and not r["numerics"]["matches_pytorch"] for r in results):
        log(f"WARNING: some engine's detections on {title} differ from PyTorch's (see the table)")
        return False
    return True


def report_stem(out: Path, date: str, name: str) -> Path:
    """`out/peers-DATE-NAME`, or with the day's next letter where a report of that name is there
    already (`DATEb`, … `DATEz`, `DATEza`, … as in Benchmarks/results): a run never replaces an
    earlier one (the files are then created exclusively)."""
    def letters():
        yield ""
        yield from "bcdefghijklmnopqrstuvwxy"
        prefix = "z"
        while True:
            yield prefix
            yield from (prefix + letter for letter in "abcdefghijklmnopqrstuvwxy")
            prefix += "z"
    for letter in letters():
        stem = out / f"peers-{date}{letter}-{name}"
        if not stem.with_suffix(".md").exists() and not stem.with_suffix(".json").exists():
            return stem


def main() -> None:
    def int_list(text: str) -> list[int]:
        values = [int(part) for part in text.split(",") if part.strip()]
        if not values or any(v < 1 for v in values):
            raise argparse.ArgumentTypeError("thread counts are positive integers, e.g. 1,2")
        return values

    def engine_list(text: str) -> list[str]:
        values = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [v for v in values if v not in ENGINES]
        if unknown or not values:
            raise argparse.ArgumentTypeError(f"engines are {','.join(ENGINES)}")
        return [e for e in ENGINES if e in values]  # SwiftYOLO first, whatever the order given

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--runs", type=int, default=5, help="timed forward passes per engine per round (default 5)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of alternation (default 10)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed passes per engine first (default 5)")
    parser.add_argument("--threads", type=int_list, default=[1, 2], help="thread counts, e.g. 1,2 (default)")
    parser.add_argument("--engines", type=engine_list, default=list(ENGINES), help=f"subset of {','.join(ENGINES)}")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between turns (default 0.25)")
    parser.add_argument("--models", type=lambda text: [m.strip() for m in text.split(",") if m.strip()],
                        default=["yolo11n", "yolo26n"],
                        help="models, one report each: ../shared/weights/NAME.pt and Weights/NAME.swyolo "
                             "(default yolo11n,yolo26n)")
    parser.add_argument("--weights", help="with one model: its Ultralytics checkpoint instead of ../shared/weights/NAME.pt")
    parser.add_argument("--model", help="with one model: SwiftYOLO's converted weights instead of Weights/NAME.swyolo")
    parser.add_argument("--image", default=str(ROOT.parent / "shared" / "images" / "bus.jpg"),
                        help="the input image (default ../shared/images/bus.jpg)")
    parser.add_argument("--out", default=str(BENCHMARKS / "results"), help="where the report goes (Benchmarks/results)")
    parser.add_argument("--no-build", action="store_true", help="use the swiftyolo-peer already built")
    parser.add_argument("--swift-flags", default="",
                        help="extra `swift build` flags for swiftyolo-peer (default none: the kernel set is chosen at "
                             "run time, SWIFTYOLO_KERNELS forces one)")
    parser.add_argument("--isa", choices=sorted(ISA_CAPS),
                        help="hold every engine that has a switch for it to this instruction set (see above)")
    parser.add_argument("--no-venv", action="store_true", help="run in this interpreter (peers installed already)")
    parser.add_argument("--worker", choices=ENGINES[1:], help=argparse.SUPPRESS)
    parser.add_argument("--threads-worker", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--input", help=argparse.SUPPRESS)
    parser.add_argument("--artifact", help=argparse.SUPPRESS)
    parser.add_argument("--worker-end2end", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        worker_main(args)
        return
    if args.runs < 1 or args.rounds < 1 or args.warmup < 0:
        parser.error("--runs and --rounds must be at least 1, --warmup at least 0")
    if args.isa and args.isa not in " ".join(machine_info()["instruction_sets"]).lower().split():
        parser.error(f"--isa {args.isa}: this CPU has no {args.isa.upper()}")
    if args.isa and os.environ.get("SWIFTYOLO_KERNELS"):
        parser.error("--isa sets SWIFTYOLO_KERNELS itself: unset it")
    if (args.weights or args.model) and len(args.models) != 1:
        parser.error("--weights and --model name one model's files: give one model with --models")
    if not args.no_venv and not in_venv():
        ensure_venv_and_reexec(args)
    matched = True
    for name in args.models:
        weights = Path(args.weights) if args.weights else ROOT.parent / "shared" / "weights" / f"{name}.pt"
        model = Path(args.model) if args.model else ROOT / "Weights" / f"{name}.swyolo"
        matched = run_benchmark(args, name, weights, model) and matched
        if has_end2end_head(weights):
            matched = run_benchmark(args, name, weights, model, end2end=True) and matched
    if not matched:
        sys.exit(1)


if __name__ == "__main__":
    main()
