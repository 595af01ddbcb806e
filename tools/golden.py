#!/usr/bin/env python3
"""Dump golden tensors of a YOLO detection, segmentation or pose model, computed by Ultralytics/PyTorch itself.

Usage: python tools/golden.py --weights FILE (--image PATH | --seed N) --size HxW --out OUT.swyolo

Needs torch + ultralytics (tools/requirements-golden.txt). FILE is an Ultralytics `.pt` or a
SwiftYOLO weights file (`.swyolo`). The model runs as `YOLO(pt).predict()` runs it: float32, eval,
Conv+BatchNorm fused. `--image` is preprocessed as predict does for a fixed HxW canvas (letterbox,
centered, padding 114, BGR->RGB, /255); `--seed` feeds uniform [0, 1) noise from
numpy.random.RandomState(N). The output holds `input`, every top-level layer's output `model.0`...,
the decoded head output, the head's per-level maps `model.<L-1>.raw.<i>` and, for segmentation, the
mask prototypes `model.<L-1>.proto` (docs/weight-file.md).
The output may be a new path or an earlier SwiftYOLO file; anything else (an input, a link, a folder,
another kind of file) is refused before the model is loaded (swyolo_file.check_output_path).
"""

import argparse
import copy
import os
import platform
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import cv2
    import numpy as np
    import torch
    import ultralytics
    from ultralytics.data.augment import LetterBox
    from ultralytics.nn.tasks import DetectionModel, PoseModel, SegmentationModel
    from ultralytics.utils.patches import imread
    try:
        from ultralytics.nn.tasks import load_checkpoint
    except ImportError:  # Ultralytics before 8.4
        from ultralytics.nn.tasks import attempt_load_one_weight as load_checkpoint
except ImportError as error:
    sys.exit(f"golden.py: needs torch and ultralytics ({error}); "
             "install them with: pip install -r tools/requirements-golden.txt")

from swyolo_file import (FORMAT_VERSION, TensorFileError, check_output_path, file_sha256,  # noqa: E402
                         read_tensor_file, write_tensor_file)

GENERATOR_VERSION = "1.1.0"
MODEL_CLASSES = {"detect": DetectionModel, "segment": SegmentationModel, "pose": PoseModel}


def load_model(path, end2end=False):
    """An fp32, eval-mode, fused Detection/Segmentation/PoseModel from a `.pt` checkpoint or a `.swyolo` weights file.

    `end2end` selects the one-to-one head of an end-to-end model (YOLO26) before fusion, as
    `predict(nms=False)` does; fusion drops the head that is not selected.
    """
    if path.endswith(".swyolo"):
        metadata, tensors = read_tensor_file(path)
        if metadata.get("kind") != "weights":
            sys.exit(f"golden.py: {path}: not a weights file (kind {metadata.get('kind')!r})")
        model_class = MODEL_CLASSES.get(metadata.get("task"))
        if model_class is None:
            sys.exit(f"golden.py: {path}: task {metadata.get('task')!r} is not one of {sorted(MODEL_CLASSES)}")
        model = model_class(copy.deepcopy(metadata["yaml"]), nc=metadata["nc"], verbose=False)
        state = {name: torch.from_numpy(np.array(value)) for name, value in tensors.items()}
        missing, unexpected = model.load_state_dict(state, strict=False)
        missing = [k for k in missing if not k.endswith("num_batches_tracked")]
        if missing or unexpected:
            sys.exit(f"golden.py: {path}: tensors missing {missing[:5]}, unexpected {unexpected[:5]}")
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d) and metadata["batchnorm_eps"] is not None:
                module.eps = metadata["batchnorm_eps"]
        built = {name: type(m.act).__name__ for name, m in model.named_modules() if hasattr(m, "act") and hasattr(m, "conv")}
        if built != metadata["activations"]:
            sys.exit(f"golden.py: {path}: this Ultralytics builds activations that differ from the file's 'activations'")
        model.stride = model.model[-1].stride = torch.tensor(metadata["stride"], dtype=torch.float32)
        model.names = dict(enumerate(metadata["names"]))
    else:
        model, _ = load_checkpoint(path)
    if end2end:
        model.end2end = True
    return model.float().eval().fuse(verbose=False)


def preprocess_image(path, height, width):
    """[1, 3, H, W] RGB float32 in [0, 1], exactly as Ultralytics' predictor prepares one image."""
    image = imread(path, flags=cv2.IMREAD_COLOR)  # BGR, like LoadImagesAndVideos
    if image is None:
        sys.exit(f"golden.py: {path}: cannot read image")
    image = LetterBox(new_shape=(height, width), auto=False)(image=image)
    tensor = torch.from_numpy(image).unsqueeze(0).permute(0, 3, 1, 2).contiguous()  # BHWC -> BCHW
    return tensor.flip(1).float().div_(255)  # BGR -> RGB, uint8 -> [0, 1]


# The raw outputs each head adds after the box logits and class logits, in Ultralytics' key names:
# Segment's mask coefficients, Pose's keypoints before decoding.
EXTRA_RAW_OUTPUTS = ("mask_coefficient", "kpts")


def head_maps(preds):
    """The head's per-level maps [1, 4*reg_max + nc (+ nm | + nk), H/s, W/s] from its raw predictions."""
    if isinstance(preds, (list, tuple)):  # older Ultralytics: the per-level maps themselves
        return list(preds)
    if "one2many" in preds:  # an end-to-end head in its default (one-to-many) mode
        preds = preds["one2many"]
    keys = ["boxes", "scores"] + [key for key in EXTRA_RAW_OUTPUTS if key in preds]
    maps, start = [], 0
    for feat in preds["feats"]:
        n, _, h, w = feat.shape
        level = slice(start, start + h * w)
        maps.append(torch.cat([preds[key][..., level].reshape(n, -1, h, w) for key in keys], 1))
        start += h * w
    return maps


def run_layers(model, x, end2end_model=None):
    """Run the model with a forward hook on every top-level layer; returns [(name, tensor)] in order.

    With `end2end_model` (the same weights with the one-to-one head selected), the one-to-one head's
    outputs follow: `model.<L>.one2one` decoded `[1, 4 + nc, anchors]` (xyxy, as Ultralytics decodes
    it for end-to-end inference), its per-level maps `model.<L>.one2one.raw.<i>`, and
    `model.<L>.end2end`, the top-k selection `[1, min(300, anchors), 6]` (x1, y1, x2, y2, score, class).
    """
    layers = list(model.model)
    outputs = {}
    hooks = [layer.register_forward_hook(lambda _m, _i, out, i=i: outputs.__setitem__(i, out))
             for i, layer in enumerate(layers)]
    with torch.inference_mode():
        model(x)
    for hook in hooks:
        hook.remove()
    last = len(layers) - 1
    # Eval mode: (decoded [1, 4 + nc (+ nm | + nk), anchors], raw predictions); Segment pairs the
    # decoded output with its prototypes [1, nm, H/4, W/4].
    decoded, preds = outputs[last]
    proto = None
    if isinstance(decoded, (list, tuple)):
        decoded, proto = decoded
    dump = [(f"model.{i}", outputs[i]) for i in range(last)] + [(f"model.{last}", decoded)]
    if proto is not None:
        dump.append((f"model.{last}.proto", proto))
    dump += [(f"model.{last}.raw.{i}", m) for i, m in enumerate(head_maps(preds))]
    if end2end_model is not None:
        detect = end2end_model.model[-1]
        with torch.inference_mode():
            selected, e2e_preds = end2end_model(x)
            one2one = e2e_preds["one2one"]
            decoded_one2one = detect._inference(one2one)
        dump += [(f"model.{last}.one2one", decoded_one2one)]
        dump += [(f"model.{last}.one2one.raw.{i}", m) for i, m in enumerate(head_maps(one2one))]
        dump += [(f"model.{last}.end2end", selected)]
    return dump


def parse_size(text):
    try:
        height, width = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be HxW, e.g. 320x256, not {text!r}") from None
    if height % 32 or width % 32 or height <= 0 or width <= 0:
        raise argparse.ArgumentTypeError(f"size {text}: H and W must be positive multiples of 32")
    if height > MAXIMUM_SIDE or width > MAXIMUM_SIDE:
        raise argparse.ArgumentTypeError(f"size {text}: H and W must be at most {MAXIMUM_SIDE} (the engine's largest input side)")
    return height, width


# The engine's largest input side (`Detector.maximumInputSide`).
MAXIMUM_SIDE = 16384


def parse_seed(text):
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer, not {text!r}") from None
    if not 0 <= seed < 1 << 32:
        raise argparse.ArgumentTypeError(f"seed {seed}: numpy's RandomState takes 0 ... 2**32 - 1")
    return seed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", required=True, help="Ultralytics .pt checkpoint or .swyolo weights file")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", help="image to letterbox as predict() does")
    source.add_argument("--seed", type=parse_seed, help="RandomState seed of a uniform [0, 1) input (0 ... 2**32 - 1)")
    parser.add_argument("--size", type=parse_size, required=True, help="input size HxW (multiples of 32)")
    parser.add_argument("--out", required=True, help="golden file to write (.swyolo)")
    args = parser.parse_args(argv)
    height, width = args.size
    inputs = {"weights": args.weights}
    if args.image:
        inputs["image"] = args.image
    for path in inputs.values():  # before Ultralytics, which would try to download a missing '.pt'
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                sys.exit(f"golden.py: {path}: not a regular file")
        except OSError as error:
            sys.exit(f"golden.py: {path}: {error.strerror}")
    try:
        check_output_path(args.out, inputs)
    except TensorFileError as error:
        sys.exit(f"golden.py: {args.weights}: {error}")
    try:
        return write_golden(args, height, width, inputs)
    except (TensorFileError, OSError, ValueError, RuntimeError, AssertionError, MemoryError, KeyError) as error:
        # A missing or unreadable weights file, one that is not a model, an input too large for memory:
        # one line, never a traceback (what torch and ultralytics raise for them varies).
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        sys.exit(f"golden.py: {args.weights}: {' '.join(reason.split())}")


def write_golden(args, height, width, inputs):
    """Runs the model and writes the golden file `args` ask for; returns the exit status."""
    model = load_model(args.weights)
    end2end_model = load_model(args.weights, end2end=True)
    if not getattr(end2end_model.model[-1], "end2end", False):  # no one-to-one head
        end2end_model = None
    if args.image:
        x = preprocess_image(args.image, height, width)
        input_info = {"image": os.path.basename(args.image), "sha256": file_sha256(args.image)}
    else:
        x = torch.from_numpy(np.random.RandomState(args.seed).uniform(size=(1, 3, height, width)).astype(np.float32))
        input_info = {"seed": args.seed}

    dump = [("input", x)] + run_layers(model, x, end2end_model)
    tensors = [(name, t.detach().float().contiguous().numpy()) for name, t in dump]
    metadata = {
        "kind": "golden",
        "format_version": FORMAT_VERSION,
        "generator": {"name": "tools/golden.py", "version": GENERATOR_VERSION, "python": platform.python_version(),
                      "numpy": np.__version__, "torch": torch.__version__, "ultralytics": ultralytics.__version__},
        "weights": {"file": os.path.basename(args.weights), "sha256": file_sha256(args.weights)},
        "input": input_info,
        "size": [height, width],
        "task": getattr(model, "task", "detect"),
        "layers": [name for name, _ in dump if name.startswith("model.") and ".raw." not in name
                   and not name.endswith((".proto", ".one2one", ".end2end"))],
    }
    try:
        write_tensor_file(args.out, metadata, tensors, inputs=inputs)
    except TensorFileError as error:
        sys.exit(f"golden.py: {args.weights}: {error}")
    for name, array in tensors:
        print(f"{name:<16} {str(list(array.shape)):<22} std {array.std():10.4f}  max|x| {np.abs(array).max():10.4f}")
    print(f"golden.py: wrote {args.out}: {len(tensors)} tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
