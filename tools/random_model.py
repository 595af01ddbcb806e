#!/usr/bin/env python3
"""Make a seeded random YOLO detection, segmentation or pose model: an Ultralytics checkpoint, or a manifest for random_weights.py.

Usage:
  python tools/random_model.py --cfg yolo11n.yaml --nc 38 --seed 1 --out M.pt
  python tools/random_model.py --cfg yolo11m.yaml --nc 80 --seed 2 --manifest M.manifest.json
  python tools/random_model.py --cfg yolo11n-pose.yaml --nc 2 --kpt-shape 5,3 --seed 4 --manifest M.manifest.json
  python tools/random_model.py --cfg yolo26n.yaml --nc 20 --seed 3 --manifest M.manifest.json

The task (and so the model class) follows the cfg, as Ultralytics guesses it (`-seg`, `-pose`).

Needs torch + ultralytics (tools/requirements-golden.txt). Weights come from
random_weights.random_state_dict (numpy RandomState): conv weights scaled by fan-in so activations
keep their scale, random BatchNorm weight/bias/running statistics so BatchNorm folding is really
tested, and the fixed DFL weights. `--out` saves the way Ultralytics' trainer saves a checkpoint:
fp16, under 'ema' with 'model': None. `--manifest` writes the model's description and tensor list
(no weights) plus the SHA-256 that random_weights.py must produce for `--seed`.
"""

import argparse
import hashlib
import json
import os
import platform
import sys
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import numpy as np
    import torch
    import ultralytics
    from ultralytics.nn.tasks import DetectionModel, PoseModel, SegmentationModel, guess_model_task
except ImportError as error:
    sys.exit(f"random_model.py: needs torch and ultralytics ({error}); "
             "install them with: pip install -r tools/requirements-golden.txt")

from random_weights import GENERATOR_VERSION, encode_random_weights, random_state_dict  # noqa: E402

BATCHNORM_ROLES = {"weight": "bn_weight", "bias": "bn_bias",
                   "running_mean": "bn_running_mean", "running_var": "bn_running_var"}


def tensor_list(model):
    """The model's state-dict tensors (without num_batches_tracked) with shape and init rule, in order."""
    dfl_conv = getattr(model.model[-1].dfl, "conv", None)  # None without DFL (reg_max 1, YOLO26)
    tensors = []
    for name, value in model.state_dict().items():
        module_name, _, attribute = name.rpartition(".")
        if attribute == "num_batches_tracked":
            continue
        module = model.get_submodule(module_name)
        if module is dfl_conv:
            init = "dfl"
        elif isinstance(module, torch.nn.Conv2d):
            init = {"weight": "conv_weight", "bias": "conv_bias"}[attribute]
        elif isinstance(module, torch.nn.ConvTranspose2d):  # Segment's Proto upsampling
            init = {"weight": "conv_transpose_weight", "bias": "conv_bias"}[attribute]
        elif isinstance(module, torch.nn.BatchNorm2d):
            init = BATCHNORM_ROLES[attribute]
        else:
            raise SystemExit(f"random_model.py: no init rule for '{name}' ({type(module).__name__})")
        tensors.append({"name": name, "shape": list(value.shape), "init": init})
    return tensors


MODEL_CLASSES = {"detect": DetectionModel, "segment": SegmentationModel, "pose": PoseModel}


def build_model(cfg, nc, seed, kpt_shape=None):
    """A Detection/Segmentation/PoseModel from `cfg` (task as Ultralytics guesses it) with nc classes,
    names class0..., and seeded random weights; `kpt_shape` overrides a pose cfg's keypoints."""
    task = guess_model_task(cfg)
    if task not in MODEL_CLASSES:
        raise SystemExit(f"random_model.py: {cfg} is a '{task}' model; only {sorted(MODEL_CLASSES)} are supported")
    if task == "pose":
        model = PoseModel(cfg, nc=nc, data_kpt_shape=tuple(kpt_shape) if kpt_shape else (None, None), verbose=False)
    elif kpt_shape:
        raise SystemExit(f"random_model.py: --kpt-shape is for pose models, {cfg} is a '{task}' model")
    else:
        model = MODEL_CLASSES[task](cfg, nc=nc, verbose=False)
    model.task = task
    model.names = {i: f"class{i}" for i in range(nc)}
    tensors = tensor_list(model)
    values = {k: torch.from_numpy(v) for k, v in random_state_dict(tensors, seed).items()}
    missing, unexpected = model.load_state_dict(values, strict=False)
    assert not unexpected and all(k.endswith("num_batches_tracked") for k in missing), (missing, unexpected)
    return model.eval(), tensors


def generator_info(seed):
    return {"name": "tools/random_model.py", "version": GENERATOR_VERSION, "seed": seed,
            "python": platform.python_version(), "numpy": np.__version__, "torch": torch.__version__,
            "ultralytics": ultralytics.__version__}


def save_checkpoint(model, cfg, seed, path):
    """Save like Ultralytics' trainer: fp16 EMA under 'ema', 'model' None, with date and version."""
    ema = model.half().requires_grad_(False)
    torch.save({
        "date": datetime.now().astimezone().isoformat(),
        "version": ultralytics.__version__,
        "license": "AGPL-3.0 License (https://ultralytics.com/license)",
        "docs": "https://docs.ultralytics.com",
        "epoch": -1,
        "model": None,
        "ema": ema,
        "updates": 0,
        "train_args": {"task": model.task, "model": cfg, "nc": len(model.names)},
        "generator": generator_info(seed),
    }, path)


def write_manifest(model, tensors, cfg, seed, name, path, precision="float32"):
    """Write the manifest; one line per key and per tensor, so diffs stay readable."""
    eps = {m.eps for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)}
    assert len(eps) == 1, eps
    manifest = {
        "kind": "random-model-manifest",
        "name": name,
        "generator": generator_info(seed),
        "cfg": cfg,
        **({"task": model.task} if model.task != "detect" else {}),
        "yaml": model.yaml,
        "nc": len(model.names),
        "names": [model.names[i] for i in range(len(model.names))],
        "stride": [int(s) for s in model.stride.tolist()],
        "batchnorm_eps": eps.pop(),
        "activations": {name: type(m.act).__name__ for name, m in model.named_modules()
                        if hasattr(m, "act") and hasattr(m, "conv")},
        "parameter_count": sum(p.numel() for p in model.parameters()),
        "precision": precision,
        "tensors": tensors,
    }
    as_read = json.loads(json.dumps(manifest))  # exactly what random_weights.py will see
    manifest["expected_sha256"] = {str(seed): hashlib.sha256(encode_random_weights(as_read, seed)).hexdigest()}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in manifest.items() if k != "tensors"]
    lines.append('  "tensors": [\n' + ",\n".join(f"    {json.dumps(t)}" for t in tensors) + "\n  ]")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")
    return manifest


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cfg", required=True, help="Ultralytics model yaml, e.g. yolo11n.yaml or yolo11m.yaml")
    parser.add_argument("--nc", type=int, required=True, help="number of classes")
    parser.add_argument("--seed", type=int, required=True, help="RandomState seed of the weights")
    parser.add_argument("--kpt-shape", type=lambda t: [int(v) for v in t.split(",")], metavar="K,D",
                        help="pose models: keypoints and values per keypoint (2 or 3), e.g. 5,3")
    output = parser.add_mutually_exclusive_group(required=True)
    output.add_argument("--out", help="checkpoint to write (.pt)")
    output.add_argument("--manifest", help="manifest to write (.json) instead of a checkpoint")
    parser.add_argument("--name", help="model name recorded in the manifest (default: the manifest's file stem)")
    parser.add_argument("--precision", choices=["float32", "float16"], default="float32",
                        help="manifest only: values rounded to half precision, as Ultralytics saves checkpoints")
    args = parser.parse_args(argv)

    model, tensors = build_model(args.cfg, args.nc, args.seed, args.kpt_shape)
    parameters = sum(p.numel() for p in model.parameters())
    if args.out:
        save_checkpoint(model, args.cfg, args.seed, args.out)
        print(f"random_model.py: wrote {args.out}: {len(tensors)} tensors, {parameters:,} parameters, "
              f"seed {args.seed}")
    else:
        name = args.name or os.path.basename(args.manifest).split(".")[0]
        manifest = write_manifest(model, tensors, args.cfg, args.seed, name, args.manifest, args.precision)
        print(f"random_model.py: wrote {args.manifest}: {len(tensors)} tensors, {parameters:,} parameters, "
              f"expected sha256 for seed {args.seed}: {manifest['expected_sha256'][str(args.seed)]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
