#!/usr/bin/env python3
"""Convert an Ultralytics YOLO detection, segmentation or pose checkpoint (`.pt`) into a SwiftYOLO weights file.

Usage: python3 tools/convert.py CHECKPOINT.pt OUTPUT

Needs python3 + numpy only; the checkpoint is read without running any of its code (see
checkpoint.py). The output layout and metadata are described in docs/weight-file.md. On refusal the
exit status is 1 and stderr has one line: `convert.py: <file>: <reason>`. The output may be a new
path or an earlier SwiftYOLO file; anything else (the checkpoint itself, a link, a folder, another
kind of file) is refused before the checkpoint is read (swyolo_file.check_output_path).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from checkpoint import DEFAULT_LIMITS, CheckpointError, Limits, load_checkpoint  # noqa: E402
from swyolo_file import (FORMAT_VERSION, TensorFileError, check_output_path, file_sha256,  # noqa: E402
                         write_tensor_file)

CONVERTER_VERSION = "1.1.0"


def model_scale(yaml):
    """The model's scale as Ultralytics picks it: the yaml's 'scale', else the first key of 'scales'."""
    scales = yaml.get("scales") or {}
    return yaml.get("scale") or next(iter(scales), None)


def weights_metadata(converter, source, yaml, names, stride, batchnorm_eps, activations, task="detect"):
    """Metadata of a `kind: "weights"` file (docs/weight-file.md), shared by every writer of weights."""
    return {
        "kind": "weights",
        "format_version": FORMAT_VERSION,
        "converter": converter,
        "source": source,
        "task": task,
        "yaml": yaml,
        "scale": model_scale(yaml),
        "nc": yaml["nc"],
        "names": names,
        "stride": stride,
        "batchnorm_eps": batchnorm_eps,
        "activations": activations,
    }


def convert(checkpoint_path, output_path, limits=DEFAULT_LIMITS):
    """Convert one checkpoint; returns the loaded `Checkpoint`.

    Raises CheckpointError for a checkpoint it refuses, TensorFileError for an output it refuses or
    cannot write; the output is checked before the (slow) checkpoint is read.
    """
    inputs = {"checkpoint": checkpoint_path}
    check_output_path(output_path, inputs)
    checkpoint = load_checkpoint(checkpoint_path, limits)
    source = {
        "file": os.path.basename(checkpoint_path),
        "sha256": file_sha256(checkpoint_path),
        "ultralytics_version": checkpoint.version,
        "date": checkpoint.date,
    }
    metadata = weights_metadata({"name": "tools/convert.py", "version": CONVERTER_VERSION}, source,
                                checkpoint.yaml, checkpoint.names, checkpoint.stride, checkpoint.batchnorm_eps,
                                checkpoint.activations, task=checkpoint.task)
    write_tensor_file(output_path, metadata, checkpoint.state_dict.items(), inputs=inputs)
    return checkpoint


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="Ultralytics .pt checkpoint (a YOLO detection, segmentation or pose model)")
    parser.add_argument("output", help="weights file to write (.swyolo)")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                        help="raise or lower one of the reader's limits (checkpoint.Limits), e.g. "
                             "max_pickle_bytes=536870912; a refusal names the limit it hit")
    args = parser.parse_args(argv)
    try:
        limits = Limits.parse(args.limit)
    except ValueError as error:
        parser.error(str(error))
    try:
        checkpoint = convert(args.checkpoint, args.output, limits)
    except (CheckpointError, TensorFileError) as error:
        reason = str(error)
    except OSError as error:  # reading the checkpoint
        reason = error.strerror or str(error)
    except Exception as error:  # never a traceback for a bad input file
        reason = f"unexpected {type(error).__name__}: {error}"
    else:
        print(f"convert.py: wrote {args.output}: {len(checkpoint.state_dict)} tensors, "
              f"{checkpoint.parameter_count:,} parameters, scale {model_scale(checkpoint.yaml)}, "
              f"nc {checkpoint.nc}, task {checkpoint.task}, from '{checkpoint.model_key}'")
        return 0
    print(f"convert.py: {args.checkpoint}: {' '.join(reason.split())}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
