#!/usr/bin/env python3
"""Fill a random-model manifest with seeded random weights and write a SwiftYOLO weights file.

Usage: python3 tools/random_weights.py --manifest M.json [--seed S] --out W.swyolo

numpy only. Values come from `numpy.random.RandomState(seed)`, whose stream numpy keeps frozen
across versions, so the same manifest and seed always give the same bytes. A manifest (written by
tools/random_model.py --manifest) lists the model's yaml, names, strides and every state-dict tensor
with its shape and init rule, and records the SHA-256 the output must have for given seeds; a
mismatch exits with status 1 and writes nothing, so a changed RNG never silently changes a model.
The output may be a new path or an earlier SwiftYOLO file; anything else (the manifest, a link, a
folder, another kind of file) is refused before any weights are drawn (swyolo_file.check_output_path).
`random_state_dict` is also what tools/random_model.py uses for its `.pt` checkpoints.
"""

import argparse
import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from convert import weights_metadata  # noqa: E402
from swyolo_file import TensorFileError, check_output_path, encode_tensor_file, write_bytes_atomically  # noqa: E402

GENERATOR_VERSION = "1.0.0"
CONV_GAIN = 1.4  # keeps activations' scale roughly constant through conv + BN + SiLU stacks


def _conv_weight(rs, shape):
    fan_in = int(np.prod(shape[1:]))  # in/groups * kh * kw
    return rs.standard_normal(shape) * (CONV_GAIN / np.sqrt(fan_in))


# Init rule -> sampler(RandomState, shape). BatchNorm statistics are random so BN folding is tested.
INIT_RULES = {
    "conv_weight": _conv_weight,
    # ConvTranspose2d [in, out, k, k] with stride k: each output takes `in` inputs.
    "conv_transpose_weight": lambda rs, shape: rs.standard_normal(shape) * (CONV_GAIN / np.sqrt(shape[0])),
    "conv_bias": lambda rs, shape: rs.normal(0.0, 0.2, shape),
    "bn_weight": lambda rs, shape: rs.uniform(0.6, 1.4, shape),
    "bn_bias": lambda rs, shape: rs.normal(0.0, 0.2, shape),
    "bn_running_mean": lambda rs, shape: rs.normal(0.0, 0.2, shape),
    "bn_running_var": lambda rs, shape: rs.uniform(0.5, 2.0, shape),
    "dfl": lambda rs, shape: np.arange(shape[1], dtype=np.float64).reshape(shape),  # fixed, not trained
}


# How a manifest's values are stored: "float32", or "float16" as Ultralytics saves checkpoints (the
# values are rounded to float32, then to half precision as torch's .half() does, and stored as float32,
# as tools/convert.py upcasts them).
PRECISIONS = {"float32": np.float32, "float16": np.float16}


def random_state_dict(tensors, seed, precision="float32"):
    """Deterministic random values for `tensors` (dicts with name, shape, init), drawn in list order."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}")
    rs = np.random.RandomState(seed)
    values = {}
    for tensor in tensors:
        rule = INIT_RULES.get(tensor["init"])
        if rule is None:
            raise ValueError(f"tensor '{tensor['name']}': unknown init rule {tensor['init']!r}")
        values[tensor["name"]] = rule(rs, tuple(tensor["shape"])).astype(np.float32).astype(PRECISIONS[precision]).astype(np.float32)
    return values


def encode_random_weights(manifest, seed):
    """The bytes of the weights file for `manifest` and `seed`."""
    metadata = weights_metadata(
        converter={"name": "tools/random_weights.py", "version": GENERATOR_VERSION},
        source={"manifest": manifest["name"], "seed": seed, "rng": "numpy.random.RandomState"},
        yaml=manifest["yaml"], names=manifest["names"], stride=manifest["stride"],
        batchnorm_eps=manifest["batchnorm_eps"], activations=manifest["activations"],
        task=manifest.get("task", "detect"))
    values = random_state_dict(manifest["tensors"], seed, manifest.get("precision", "float32"))
    return encode_tensor_file(metadata, values.items())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", required=True, help="manifest written by tools/random_model.py --manifest")
    parser.add_argument("--seed", type=int, help="RandomState seed (default: the one seed the manifest pins)")
    parser.add_argument("--out", required=True, help="weights file to write (.swyolo)")
    args = parser.parse_args(argv)
    inputs = {"manifest": args.manifest}
    try:
        check_output_path(args.out, inputs)
        with open(args.manifest, encoding="utf-8") as f:
            manifest = json.load(f)
        pinned = list(manifest.get("expected_sha256", {}))
        if args.seed is None:
            if len(pinned) != 1:
                raise ValueError(f"the manifest pins {len(pinned)} seeds; choose one with --seed")
            args.seed = int(pinned[0])
        data = encode_random_weights(manifest, args.seed)
    except (OSError, ValueError, KeyError, TensorFileError) as error:
        print(f"random_weights.py: {args.manifest}: {error}", file=sys.stderr)
        return 1
    digest = hashlib.sha256(data).hexdigest()
    expected = manifest.get("expected_sha256", {}).get(str(args.seed))
    if expected is not None and digest != expected:
        print(f"random_weights.py: {args.manifest}: seed {args.seed} gives sha256 {digest}, but the manifest "
              f"expects {expected}: the random stream or the file writer changed; nothing written",
              file=sys.stderr)
        return 1
    try:
        write_bytes_atomically(args.out, data, inputs=inputs)
    except TensorFileError as error:
        print(f"random_weights.py: {args.manifest}: {error}", file=sys.stderr)
        return 1
    check = "matches the manifest" if expected else "no expected sha256 for this seed in the manifest"
    print(f"random_weights.py: wrote {args.out}: {len(manifest['tensors'])} tensors, sha256 {digest} ({check})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
