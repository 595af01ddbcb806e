#!/usr/bin/env python3
"""Write what Ultralytics' own predict() gives for a segmentation or pose model, for parity tests.

Needs torch + ultralytics (tools/requirements-golden.txt; only to regenerate, the tests read the
committed JSON).

Usage:
  python tools/expected_tasks.py --weights W.pt --out FILE.json IMAGE ... [--conf 0.25] [--iou 0.7] [--imgsz 640]

Per image it runs exactly
  YOLO(W).predict(source=IMAGE, conf=, iou=, imgsz=, retina_masks=True, verbose=False)
and writes one JSON document in the layout of tools/expected_detections.py (generator, weights,
arguments, results with image, width, height, input_shape, detections, borderline), plus "task".
Each detection of a segmentation model has "mask": the `results.masks.data` bitmap at original-image
size (retina_masks=True) as COCO compressed RLE {"size": [H, W], "counts": STRING} (tools/coco_rle.py);
each detection of a pose model has "keypoints": `results.keypoints.data`, [[x, y, confidence], ...]
in original-image pixels. "borderline" lists the candidates whose presence hangs on a rounding-level
difference (expected_detections.find_borderline, over the box and class rows of the head).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

try:
    import cv2
    import numpy as np
    import torch
    import ultralytics
    from ultralytics import YOLO
except ImportError as error:
    sys.exit(f"expected_tasks.py: needs torch and ultralytics ({error}); "
             "install them with: pip install -r tools/requirements-golden.txt")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import coco_rle  # noqa: E402
from expected_detections import find_borderline, format_document, repo_relative, sha256  # noqa: E402

SCRIPT = "tools/expected_tasks.py"
GENERATOR_VERSION = "1.0.0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", required=True, type=Path, help="Ultralytics .pt checkpoint (segment or pose)")
    parser.add_argument("--out", required=True, type=Path, help="JSON file to write")
    parser.add_argument("images", nargs="+", type=Path)
    parser.add_argument("--conf", type=float, default=0.25)
    parser.add_argument("--iou", type=float, default=0.7)
    parser.add_argument("--imgsz", type=int, default=640)
    args = parser.parse_args()
    args.agnostic, args.max_det = False, 300  # predict's defaults, which find_borderline reads

    torch.manual_seed(0)
    model = YOLO(str(args.weights))
    task, names = model.task, model.names
    if task not in ("segment", "pose"):
        sys.exit(f"expected_tasks.py: {args.weights}: a '{task}' model; use expected_detections.py for detection")
    nc = len(names)

    captured: list[tuple[torch.Tensor, tuple[int, int]]] = []  # decoded head output and input shape

    def wrap(predictor):
        if getattr(predictor, "_expected_tasks_wrapped", False):
            return
        original_postprocess = predictor.postprocess

        def postprocess(preds, img, orig_imgs, **kwargs):
            decoded = preds[0] if isinstance(preds, (list, tuple)) else preds
            if isinstance(decoded, (list, tuple)):  # Segment: (decoded, prototypes)
                decoded = decoded[0]
            captured.append((decoded[:, : 4 + nc].detach().float().clone(), tuple(img.shape[2:])))
            return original_postprocess(preds, img, orig_imgs, **kwargs)

        predictor.postprocess = postprocess
        predictor._expected_tasks_wrapped = True

    model.add_callback("on_predict_start", wrap)

    results_out = []
    for image in args.images:
        if not image.is_file():
            sys.exit(f"expected_tasks.py: {image}: no such file")
        captured.clear()
        results = model.predict(source=str(image), conf=args.conf, iou=args.iou, imgsz=args.imgsz,
                                retina_masks=True, verbose=False)
        assert len(results) == 1 and len(captured) == 1
        result = results[0]
        height, width = result.orig_shape
        decoded = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if decoded is None or decoded.shape[:2] != (height, width) or not np.array_equal(decoded, result.orig_img):
            sys.exit(f"expected_tasks.py: {image}: Ultralytics' decode differs from cv2.imread")
        boxes = result.boxes
        detections = []
        for i, (box, conf, c) in enumerate(zip(boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy(), boxes.cls.cpu().numpy())):
            c = int(c)
            detection = {"class": c, "label": names[c], "confidence": float(conf), "box": [float(v) for v in box]}
            if task == "segment":
                mask = result.masks.data[i].cpu().numpy() > 0
                assert mask.shape == (height, width), mask.shape
                detection["mask"] = coco_rle.encode(mask)
                assert np.array_equal(coco_rle.decode(detection["mask"]), mask)
            else:
                detection["keypoints"] = [[float(v) for v in point] for point in result.keypoints.data[i].cpu().numpy()]
            detections.append(detection)
        raw, input_shape = captured[0]
        # Exits if its re-run of NMS differs from predict's detections (as when Segment drops an empty mask).
        borderline = find_borderline(raw, input_shape, (height, width), args, None, names, detections)
        entry = {"image": repo_relative(image), "width": int(width), "height": int(height),
                 "input_shape": list(input_shape), "detections": detections}
        if borderline:
            entry["borderline"] = borderline
        results_out.append(entry)
        print(f"{repo_relative(image)}: {width}x{height} -> input {input_shape[0]}x{input_shape[1]}, "
              f"{len(detections)} detections, {len(borderline)} borderline", file=sys.stderr)

    document = {
        "generator": {"script": SCRIPT, "version": GENERATOR_VERSION, "python": platform.python_version(),
                      "torch": torch.__version__, "ultralytics": ultralytics.__version__, "numpy": np.__version__,
                      "opencv": cv2.__version__, "device": "cpu" if not torch.cuda.is_available() else "cuda"},
        "weights": {"file": args.weights.name, "sha256": sha256(args.weights)},
        "task": task,
        "arguments": {"conf": args.conf, "iou": args.iou, "imgsz": args.imgsz, "retina_masks": True},
        "results": results_out,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(format_document(document))
    return 0


if __name__ == "__main__":
    sys.exit(main())
