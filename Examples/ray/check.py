#!/usr/bin/env python3
"""`make demo-ray`, CI-sized: a few dozen images made from bus.jpg and zidane.jpg (crops, scales,
mirror images; JPEG and PNG), detected by detect_with_ray.py on a local Ray instance; the Parquet
and JSON Lines results must equal `swift-yolo detect --json` on the same folder, image by image.

Usage: check.py SWIFT_YOLO MODEL SHARED_IMAGES OUT [COUNT]   (results in OUT/parquet, OUT/jsonl)
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import pyarrow.parquet
from PIL import Image, ImageOps


def make_images(sources, folder, count):
    generator = random.Random(20261124)
    for index in range(count):
        image = Image.open(sources[index % len(sources)]).convert("RGB")
        width, height = image.size
        left, top = generator.randrange(0, width // 4), generator.randrange(0, height // 4)
        image = image.crop((left, top, width - generator.randrange(0, width // 4), height - generator.randrange(0, height // 4)))
        scale = generator.choice([0.5, 0.75, 1.0, 1.25])
        image = image.resize((max(32, int(image.width * scale)), max(32, int(image.height * scale))), Image.BILINEAR)
        if index % 3 == 1:
            image = ImageOps.mirror(image)
        if index % 5 == 4:
            image.save(os.path.join(folder, f"image{index:03d}.png"))
        else:
            image.save(os.path.join(folder, f"image{index:03d}.jpg"), quality=90)


def comparable(result):
    return {key: value for key, value in result.items() if key not in ("image", "timing_ms")}


def main():
    binary, model, shared, out = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 36
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="ray-demo-") as images:
        run(binary, model, shared, images, out, count)


def run(binary, model, shared, images, out, count):
    make_images([os.path.join(shared, "bus.jpg"), os.path.join(shared, "zidane.jpg")], images, count)

    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "detect_with_ray.py"), "--binary", binary, "--model", model,
                    "--actors", "2", images, out], check=True)
    cli_lines = subprocess.run([binary, "detect", "--json", "--model", model, images],
                               check=True, capture_output=True, text=True).stdout.splitlines()
    cli = {os.path.basename(result["image"]): comparable(result) for result in map(json.loads, cli_lines)}

    parquet = {row["path"]: json.loads(row["result"]) for row in pyarrow.parquet.read_table(os.path.join(out, "parquet")).to_pylist()}
    jsonl = {}
    for name in os.listdir(os.path.join(out, "jsonl")):
        with open(os.path.join(out, "jsonl", name)) as file:
            for line in file:
                row = json.loads(line)
                jsonl[row["path"]] = json.loads(row["result"])
    failures = []
    for label, results in (("parquet", parquet), ("jsonl", jsonl)):
        by_name = {os.path.basename(path): result for path, result in results.items()}
        if set(by_name) != set(cli):
            failures.append(f"{label}: images {sorted(set(by_name) ^ set(cli))} differ")
        for name, result in sorted(by_name.items()):
            if result.get("image") != name or comparable(result) != cli.get(name):
                failures.append(f"{label}: {name}: {json.dumps(result)[:200]} != {json.dumps(cli.get(name))[:200]}")
    detections = sum(len(result["detections"]) for result in cli.values())
    if failures:
        print("demo-ray: FAILED\n  " + "\n  ".join(failures[:10]))
        sys.exit(1)
    print(f"demo-ray: {len(cli)} images, {detections} detections; Ray's Parquet and JSON Lines equal swift-yolo detect --json ({out})")


if __name__ == "__main__":
    main()
