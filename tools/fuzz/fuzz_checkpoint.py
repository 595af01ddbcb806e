#!/usr/bin/env python3
"""atheris (coverage-guided, libFuzzer-driven) target for the checkpoint reader, tools/checkpoint.py.

Usage: python3 tools/fuzz/fuzz_checkpoint.py [libFuzzer options] CORPUS_DIR [SEED_DIR ...]
(`Fuzz/run.sh checkpoint SECONDS` runs it as `make fuzz` does; needs `pip install atheris`).

The first byte of an input picks what the rest is:
- even: a whole `.pt` file (zip container, central directory, entries, the pickle inside);
- odd: the `data.pkl` pickle alone, placed in a well-formed torch zip beside the storages of the
  tiny test checkpoint, so mutations reach the restricted unpickler and the object-tree walk
  instead of failing the zip's CRC checks.

Invariant: `load_checkpoint` returns a `Checkpoint` or raises `CheckpointError`; anything else (an
uncaught exception, a hang past -timeout, memory past -rss_limit_mb) is a finding. Nothing from the
input may ever be called: `Record` stand-ins are the only objects built for unknown globals.
"""

import io
import os
import sys
import zipfile

import atheris

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(TOOLS, "tests"))

with atheris.instrument_imports():
    import checkpoint  # noqa: E402

from fake_checkpoint import TensorStore, checkpoint_dict, tiny_detection_model  # noqa: E402

SCRATCH = os.path.join("/dev/shm" if os.path.isdir("/dev/shm") else "/tmp", f"swift-yolo-fuzz-{os.getpid()}.pt")

_store = TensorStore()
tiny_detection_model(_store)  # fills the storages that pickle-mode inputs refer to ("0", "1", ...)
STORAGES = dict(_store.storages)


def zip_with_pickle(pickle_bytes):
    """A torch-style zip: archive/data.pkl = `pickle_bytes`, the tiny model's storages, byteorder."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pickle_bytes)
        z.writestr("archive/byteorder", "little")
        for key, data in STORAGES.items():
            z.writestr(f"archive/data/{key}", data)
        z.writestr("archive/version", "3\n")
    return out.getvalue()


def test_one_input(data):
    if not data:
        return
    payload = data[1:]
    file_bytes = payload if data[0] % 2 == 0 else zip_with_pickle(payload)
    with open(SCRATCH, "wb") as f:
        f.write(file_bytes)
    try:
        checkpoint.load_checkpoint(SCRATCH)
    except checkpoint.CheckpointError:
        pass


def main():
    atheris.Setup(sys.argv, test_one_input)
    try:
        atheris.Fuzz()
    finally:
        if os.path.exists(SCRATCH):
            os.unlink(SCRATCH)


if __name__ == "__main__":
    main()
