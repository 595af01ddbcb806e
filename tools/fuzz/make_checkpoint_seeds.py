#!/usr/bin/env python3
"""Write the seed corpus of the checkpoint fuzz target (Fuzz/Corpus/checkpoint), numpy only.

Usage: python3 tools/fuzz/make_checkpoint_seeds.py [OUT_DIR]

Seeds (first byte: 0 = a whole .pt file, 1 = the pickle alone, see fuzz_checkpoint.py): the tiny
detection checkpoint of the tests as a file and as a pickle, its EMA form, a segmentation model, a
pickle that names a disallowed global, and a strided tensor view.
"""

import os
import sys
import tempfile

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOOLS, "tests"))

from fixture_files import write_fixtures  # noqa: E402
from fake_checkpoint import (Call, Global, TensorStore, checkpoint_dict, encode_pickle,  # noqa: E402
                             tiny_detection_model, write_pt)


def seeds():
    store = TensorStore()
    model = checkpoint_dict(tiny_detection_model(store))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tiny.pt")
        write_pt(path, model, store.storages)
        with open(path, "rb") as f:
            yield "tiny-detect-file", b"\x00" + f.read()
    yield "tiny-detect-pickle", b"\x01" + encode_pickle(model)
    yield "tiny-detect-ema-pickle", b"\x01" + encode_pickle(checkpoint_dict(tiny_detection_model(TensorStore()), key="ema"))
    yield "tiny-segment-pickle", b"\x01" + encode_pickle(
        checkpoint_dict(tiny_detection_model(TensorStore(), "SegmentationModel", "Segment")))
    yield "disallowed-global-pickle", b"\x01" + encode_pickle({"x": Call(Global("os", "system"), ("true",))})
    base = store.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "FloatStorage", "<f4")
    yield "strided-view-pickle", b"\x01" + encode_pickle(Call(base.func, (base.args[0], 1, (2, 2), (1, 3), False, None)))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(TOOLS), "Fuzz", "Corpus", "checkpoint")
    write_fixtures(out, seeds())


if __name__ == "__main__":
    main()
