#!/usr/bin/env python3
"""Write the detections Ultralytics' own predict() gives, for `swift-yolo detect` parity tests.

Needs torch + ultralytics (tools/requirements-golden.txt; only to regenerate, the tests read the
committed JSON).

Usage:
  python tools/expected_detections.py --weights W.pt --out FILE.json IMAGE ... \
      [--conf 0.25] [--iou 0.7] [--imgsz 640] [--agnostic] [--max-det 300] [--classes 0,5] [--end2end]

Per image it runs exactly
  YOLO(W).predict(source=IMAGE, conf=, iou=, imgsz=, agnostic_nms=, max_det=, classes=, verbose=False)
(the defaults are Ultralytics' predict defaults; `--end2end` adds nms=False, the one-to-one head of
an end-to-end model such as YOLO26) and writes one JSON document:
  {"generator": {script, python, torch, ultralytics, numpy, opencv, torchvision, nms},
   "weights": {"file": basename, "sha256"},
   "arguments": {conf, iou, imgsz, agnostic, max_det, classes[, end2end]},
   "results": [{"image": path relative to the repository root, "width", "height" (as cv2.imread
                decodes it, i.e. after EXIF orientation), "input_shape": [h, w] of the letterboxed
                tensor fed to the model, "detections": [{"class", "label", "confidence",
                "box": [x1, y1, x2, y2]}],
                "borderline": [...] (only when non-empty; see find_borderline)}]}
Detections are in Ultralytics' order (descending confidence, as NMS keeps them); confidences and
boxes (results.boxes.xyxy, original-image pixels) are the float32 values written at full precision.
Image paths are written relative to the repository root (so ../shared/images/bus.jpg for the shared
samples, which CI keeps beside the repository).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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
    sys.exit(f"expected_detections.py: needs torch and ultralytics ({error}); "
             "install them with: pip install -r tools/requirements-golden.txt")

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = "tools/expected_detections.py"
GENERATOR_VERSION = "1.0.0"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def repo_relative(path: Path) -> str:
    return os.path.relpath(Path(path).resolve(), REPO_ROOT).replace(os.sep, "/")


def parse_classes(text: str) -> list[int]:
    try:
        ids = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated class ids, got {text!r}")
    if not ids:
        raise argparse.ArgumentTypeError("expected at least one class id")
    return ids


CONF_MARGIN = 0.005  # a candidate whose confidence is this close to --conf is "borderline"
IOU_MARGIN = 0.01  # a candidate whose deciding NMS IoU is this close to --iou is "borderline"


def find_borderline(raw, input_shape, orig_shape, args, classes, names, detections) -> list[dict]:
    """Candidates whose presence in the output hangs on a rounding-level difference.

    Re-runs the same selection as Ultralytics' non_max_suppression (best class per anchor,
    confidence > conf, optional class filter, greedy NMS in letterboxed-input pixels with boxes offset
    by class * 7680 unless agnostic, IoU > iou suppresses) with the confidence floor lowered by
    CONF_MARGIN, and reports every candidate that
      - has a confidence within CONF_MARGIN of --conf ("confidence"), or
      - was kept although its largest IoU with an earlier kept box is within IOU_MARGIN below --iou,
        or was suppressed although every kept box that suppresses it overlaps it by at most
        --iou + IOU_MARGIN ("iou").
    "expected" says whether the candidate is in "detections"; "nms_iou" (for "iou") is the deciding IoU,
    computed in letterboxed-input pixels as NMS does. The re-run is checked against
    Ultralytics' own output first. Flipping one borderline candidate can change later NMS decisions.
    """
    from ultralytics.utils import ops
    from ultralytics.utils.metrics import box_iou

    max_wh = 7680
    x = raw[0].transpose(0, 1)  # (anchors, 4 + nc)
    boxes = ops.xywh2xyxy(x[:, :4])
    scores, cls = x[:, 4:].max(1)
    keep = scores > max(args.conf - CONF_MARGIN, 0.0)
    if classes is not None:
        keep &= torch.isin(cls, torch.tensor(classes))
    boxes, scores, cls = boxes[keep], scores[keep], cls[keep]
    order = torch.argsort(scores, descending=True, stable=True)
    boxes, scores, cls = boxes[order], scores[order], cls[order]
    offset = boxes + (cls[:, None].float() * (0 if args.agnostic else max_wh))
    iou = box_iou(offset, offset) if len(offset) else torch.zeros((0, 0))
    kept: list[int] = []
    decisive: list[float | None] = []  # kept: max IoU with earlier kept; suppressed: max IoU with kept
    is_kept: list[bool] = []
    for i in range(len(scores)):
        overlaps = [float(iou[i, k]) for k in kept]
        suppressors = [v for v in overlaps if v > args.iou]
        if suppressors:
            is_kept.append(False)
            decisive.append(max(suppressors))  # it survives only if every suppressor falls to <= iou
        else:
            is_kept.append(True)
            kept.append(i)
            decisive.append(max(overlaps) if overlaps else None)

    # Cross-check: kept candidates above --conf, in order, are Ultralytics' detections.
    mine = [i for i in kept if float(scores[i]) > args.conf][: args.max_det]
    scaled = ops.scale_boxes(input_shape, boxes.clone(), orig_shape)
    if len(mine) != len(detections) or any(
        abs(float(scores[i]) - d["confidence"]) > 1e-6 or int(cls[i]) != d["class"]
        or max(abs(float(a) - b) for a, b in zip(scaled[i], d["box"])) > 1e-3
        for i, d in zip(mine, detections)
    ):
        sys.exit("expected_detections.py: the borderline re-run of NMS does not reproduce Ultralytics' output")

    borderline = []
    for i in range(len(scores)):
        score = float(scores[i])
        reasons = []
        if abs(score - args.conf) <= CONF_MARGIN:
            reasons.append("confidence")
        v = decisive[i]
        if v is not None and (is_kept[i] and args.iou - IOU_MARGIN <= v <= args.iou
                              or not is_kept[i] and args.iou < v <= args.iou + IOU_MARGIN):
            reasons.append("iou")
        if not reasons:
            continue
        if not is_kept[i] and "iou" not in reasons:
            continue  # suppressed clearly by NMS: its confidence does not matter
        c = int(cls[i])
        entry = {
            "reason": "+".join(reasons),
            "expected": is_kept[i] and score > args.conf,
            "class": c,
            "label": names[c],
            "confidence": score,
            "box": [float(v) for v in scaled[i]],
        }
        if "iou" in reasons:
            entry["nms_iou"] = v
        borderline.append(entry)
    return borderline


def find_borderline_end2end(raw, input_shape, orig_shape, args, classes, names, detections) -> list[dict]:
    """Borderline candidates of the end-to-end path (no NMS): the head's top-k rows `raw` [1, k, 6]
    (xyxy, score, class) whose score is within CONF_MARGIN of --conf ("confidence"), or within
    CONF_MARGIN / 50 of a row on the other side of the max_det cut ("max_det"). The selection
    (score > conf, class filter, first max_det rows) is re-run and checked against Ultralytics' output.
    """
    from ultralytics.utils import ops

    rows = raw[0]
    keep = rows[:, 4] > args.conf
    if classes is not None:
        keep &= torch.isin(rows[:, 5].long(), torch.tensor(classes))
    index = keep.nonzero().view(-1)
    chosen = index[: args.max_det]
    scaled = ops.scale_boxes(input_shape, rows[:, :4].clone(), orig_shape)
    if len(chosen) != len(detections) or any(
        abs(float(rows[i, 4]) - d["confidence"]) > 1e-6 or int(rows[i, 5]) != d["class"]
        or max(abs(float(a) - b) for a, b in zip(scaled[i], d["box"])) > 1e-3
        for i, d in zip(chosen.tolist(), detections)
    ):
        sys.exit("expected_detections.py: the re-run of the end-to-end selection does not reproduce Ultralytics' output")
    # The max_det cut: the last row kept and the first row cut for it.
    last_kept, first_cut = ((float(rows[index[args.max_det - 1], 4]), float(rows[index[args.max_det], 4]))
                            if len(index) > args.max_det else (None, None))
    chosen_rows = set(chosen.tolist())
    borderline = []
    for i in range(rows.shape[0]):
        score, c = float(rows[i, 4]), int(rows[i, 5])
        if classes is not None and c not in classes:
            continue
        reasons = []
        if abs(score - args.conf) <= CONF_MARGIN:
            reasons.append("confidence")
        if first_cut is not None and score > args.conf and (
                score - first_cut <= CONF_MARGIN / 50 if i in chosen_rows else last_kept - score <= CONF_MARGIN / 50):
            reasons.append("max_det")
        if reasons:
            borderline.append({"reason": "+".join(reasons), "expected": i in chosen_rows, "class": c,
                               "label": names[c], "confidence": score, "box": [float(v) for v in scaled[i]]})
    return borderline


def format_document(document: dict) -> str:
    """JSON with one detection per line (readable diffs); floats keep full repr precision."""
    lines = ["{"]
    for key, value in document.items():
        if key != "results":
            lines.append(f" {json.dumps(key)}: {json.dumps(value)},")
    results = []
    for result in document["results"]:
        parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in result.items()
                 if k not in ("detections", "borderline")]
        for key in ("detections", "borderline"):
            if key in result:
                items = result[key]
                body = ",\n".join("   " + json.dumps(item) for item in items)
                parts.append(f"{json.dumps(key)}: [\n{body}\n  ]" if items else f"{json.dumps(key)}: []")
        results.append("  {" + ", ".join(parts) + "}")
    lines.append(' "results": [\n' + ",\n".join(results) + "\n ]")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == json.loads(json.dumps(document))
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", required=True, type=Path, help="Ultralytics .pt checkpoint")
    parser.add_argument("--out", required=True, type=Path, help="JSON file to write")
    parser.add_argument("images", nargs="+", type=Path)
    parser.add_argument("--conf", type=float, default=0.25)
    parser.add_argument("--iou", type=float, default=0.7)
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--agnostic", action="store_true", help="class-agnostic NMS (agnostic_nms=True)")
    parser.add_argument("--max-det", type=int, default=300)
    parser.add_argument("--classes", type=parse_classes, default=None,
                        help="comma-separated class ids to keep, e.g. 0,5")
    parser.add_argument("--end2end", action="store_true",
                        help="the one-to-one head without NMS (nms=False), for end-to-end models such as YOLO26")
    args = parser.parse_args()
    classes = args.classes

    torch.manual_seed(0)
    model = YOLO(str(args.weights))
    names = model.names

    # Record the shape of the tensor each predict() feeds the model (the letterboxed batch).
    seen_shapes: list[tuple[int, int]] = []
    captured: list[tuple[torch.Tensor, tuple[int, int]]] = []  # raw head output and input shape, per predict()

    def wrap_preprocess(predictor):
        if getattr(predictor, "_expected_detections_wrapped", False):
            return
        original = predictor.preprocess

        def preprocess(im):
            out = original(im)
            seen_shapes.append(tuple(int(x) for x in out.shape[2:]))
            return out

        original_postprocess = predictor.postprocess

        def postprocess(preds, img, orig_imgs, **kwargs):
            raw = preds[0] if isinstance(preds, (list, tuple)) else preds
            captured.append((raw.detach().float().clone(), tuple(img.shape[2:])))
            return original_postprocess(preds, img, orig_imgs, **kwargs)

        predictor.preprocess = preprocess
        predictor.postprocess = postprocess
        predictor._expected_detections_wrapped = True

    model.add_callback("on_predict_start", wrap_preprocess)

    results_out = []
    for image in args.images:
        if not image.is_file():
            sys.exit(f"expected_detections.py: {image}: no such file")
        seen_shapes.clear()
        captured.clear()
        results = model.predict(source=str(image), conf=args.conf, iou=args.iou, imgsz=args.imgsz,
                                agnostic_nms=args.agnostic, max_det=args.max_det, classes=classes,
                                **({"nms": False} if args.end2end else {}), verbose=False)
        assert len(results) == 1 and len(seen_shapes) == 1, (len(results), seen_shapes)
        result = results[0]
        height, width = result.orig_shape
        decoded = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if decoded is None or decoded.shape[:2] != (height, width) or not np.array_equal(decoded, result.orig_img):
            sys.exit(f"expected_detections.py: {image}: Ultralytics' decode differs from cv2.imread")
        boxes = result.boxes
        xyxy = boxes.xyxy.cpu().numpy()
        confs = boxes.conf.cpu().numpy()
        cls = boxes.cls.cpu().numpy()
        detections = []
        for box, conf, c in zip(xyxy, confs, cls):
            c = int(c)
            detections.append({
                "class": c,
                "label": names[c],
                "confidence": float(conf),
                "box": [float(v) for v in box],
            })
        assert len(captured) == 1 and captured[0][1] == seen_shapes[0]
        find = find_borderline_end2end if args.end2end else find_borderline
        borderline = find(captured[0][0], seen_shapes[0], (height, width), args, classes, names, detections)
        entry = {
            "image": repo_relative(image),
            "width": int(width),
            "height": int(height),
            "input_shape": list(seen_shapes[0]),
            "detections": detections,
        }
        if borderline:
            entry["borderline"] = borderline
        results_out.append(entry)
        print(f"{repo_relative(image)}: {width}x{height} -> input {seen_shapes[0][0]}x{seen_shapes[0][1]}, "
              f"{len(detections)} detections, {len(borderline)} borderline", file=sys.stderr)
        for b in borderline:
            print(f"    borderline: {json.dumps(b)}", file=sys.stderr)

    nms_backend = "torchvision.ops.nms" if "torchvision" in sys.modules else "ultralytics TorchNMS.nms"
    try:
        import torchvision
        torchvision_version = torchvision.__version__
    except ImportError:
        torchvision_version = None
    document = {
        "generator": {
            "script": SCRIPT,
            "version": GENERATOR_VERSION,
            "python": platform.python_version(),
            "torch": torch.__version__,
            "ultralytics": ultralytics.__version__,
            "numpy": np.__version__,
            "opencv": cv2.__version__,
            "torchvision": torchvision_version,
            "nms": nms_backend,
            "device": "cpu" if not torch.cuda.is_available() else "cuda",
        },
        "weights": {"file": args.weights.name, "sha256": sha256(args.weights)},
        "arguments": {
            "conf": args.conf,
            "iou": args.iou,
            "imgsz": args.imgsz,
            "agnostic": args.agnostic,
            "max_det": args.max_det,
            "classes": classes,
            **({"end2end": True} if args.end2end else {}),
        },
        "results": results_out,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(format_document(document))
    return 0


if __name__ == "__main__":
    sys.exit(main())
