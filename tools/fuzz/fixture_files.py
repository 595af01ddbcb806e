"""Writes generated fixtures — (file name, bytes) pairs — into a folder, one line each on stdout.
Shared by the fixture generators in this folder (hostile_images.py, make_checkpoint_seeds.py)."""

import os


def write_fixtures(out, named_bytes):
    os.makedirs(out, exist_ok=True)
    for name, data in named_bytes:
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(data)
        print(f"{os.path.normpath(path)}: {len(data)} bytes")
