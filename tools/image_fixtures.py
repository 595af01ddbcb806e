#!/usr/bin/env python3
"""Generate the reference fixtures for the YOLOImage and YOLODetect tests.

Needs numpy, opencv-python, torch, torchvision and ultralytics (only to regenerate; the tests read
the committed files). Every number the tests compare against comes from the real libraries:

- tiny PNG/JPEG files of every variant the decoder must handle, and what `cv2.imread(path)`
  (IMREAD_COLOR) returns for each, converted to RGB;
- `cv2.resize(..., INTER_LINEAR)` outputs for random uint8 images and many size pairs;
- Ultralytics' `LetterBox` parameters and canvases, and `ops.scale_boxes` outputs;
- Ultralytics' `non_max_suppression` (torchvision NMS) on random head outputs.

Usage: /path/to/python tools/image_fixtures.py [--root REPO]
Writes Tests/Fixtures/images/ and Tests/YOLODetectTests/Fixtures/. Deterministic (fixed seeds).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

SEED = 20240611


# --------------------------------------------------------------------------------------------
# Small helpers


def b64(a) -> str:
    return base64.b64encode(bytes(np.ascontiguousarray(a).tobytes())).decode("ascii")


def fnv1a64(data: bytes) -> str:
    """FNV-1a 64-bit hash as 16 hex digits (the Swift tests compute the same)."""
    h = 0xCBF29CE484222325
    arr = np.frombuffer(data, np.uint8)
    # Vectorising FNV is awkward; the images here are at most a few MB, so a plain loop in chunks.
    for byte in arr.tolist():
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def imread_rgb(path: Path) -> np.ndarray | None:
    im = cv2.imread(str(path))  # IMREAD_COLOR, the flag Ultralytics uses
    return None if im is None else np.ascontiguousarray(im[..., ::-1])


def sparse_samples(img: np.ndarray, step: int) -> dict:
    """Every `step`-th pixel in both directions (for diagnosing a hash mismatch)."""
    sub = np.ascontiguousarray(img[::step, ::step])
    return {"step": step, "rows": sub.shape[0], "cols": sub.shape[1], "rgb_base64": b64(sub)}


def versions() -> dict:
    import torch
    import torchvision
    import ultralytics

    return {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "opencv-python": cv2.__version__,
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "ultralytics": ultralytics.__version__,
    }


def header(what: str) -> dict:
    return {
        "generator": "tools/image_fixtures.py",
        "what": what,
        "seed": SEED,
        "versions": versions(),
    }


# --------------------------------------------------------------------------------------------
# A minimal PNG writer, so that every colour type / bit depth / interlace / chunk layout can be made.

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def pack_row(samples: np.ndarray, depth: int) -> bytes:
    if depth == 16:
        return samples.astype(">u2").tobytes()
    if depth == 8:
        return samples.astype(np.uint8).tobytes()
    per = 8 // depth
    out = bytearray((len(samples) + per - 1) // per)
    for i, v in enumerate(samples.tolist()):
        out[i // per] |= int(v) << (8 - depth * (i % per + 1))
    return bytes(out)


def make_png(img, color_type, depth, interlace=False, palette=None, trns=None, before_idat=(), after_idat=(),
             idat_parts=1) -> bytes:
    """img: (h, w, channels) integer samples in the file's own range."""
    h, w, ch = img.shape
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        sub = img[y0::dy, x0::dx]
        if sub.shape[0] == 0 or sub.shape[1] == 0:
            continue
        for r, row in enumerate(sub.reshape(sub.shape[0], -1)):
            filt = r % 5  # exercise every filter type libpng has to undo
            raw += bytes([filt]) + apply_filter(filt, pack_row(row, depth), prev_row(sub, r, depth), bpp(ch, depth))
    comp = zlib.compress(bytes(raw), 9)
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, int(interlace)))
    for kind, data in before_idat:
        out += png_chunk(kind, data)
    if palette is not None:
        out += png_chunk(b"PLTE", bytes(np.asarray(palette, np.uint8).reshape(-1)))
    if trns is not None:
        out += png_chunk(b"tRNS", trns)
    step = (len(comp) + idat_parts - 1) // idat_parts
    for i in range(0, len(comp), step):
        out += png_chunk(b"IDAT", comp[i : i + step])
    for kind, data in after_idat:
        out += png_chunk(kind, data)
    return out + png_chunk(b"IEND", b"")


def bpp(ch, depth):
    return max(1, ch * depth // 8)


def prev_row(sub, r, depth):
    return None if r == 0 else pack_row(sub.reshape(sub.shape[0], -1)[r - 1], depth)


def apply_filter(kind: int, row: bytes, prev: bytes | None, n: int) -> bytes:
    """Filter one scanline with PNG filter type `kind` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth)."""
    up = prev if prev is not None else bytes(len(row))
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - n] if i >= n else 0
        b = up[i]
        c = up[i - n] if i >= n else 0
        if kind == 0:
            pred = 0
        elif kind == 1:
            pred = a
        elif kind == 2:
            pred = b
        elif kind == 3:
            pred = (a + b) // 2
        else:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        out[i] = (x - pred) & 0xFF
    return bytes(out)


# --------------------------------------------------------------------------------------------
# EXIF (TIFF) blocks


def exif_tiff(orientation: int | None, order: str = "II", extra_entries: int = 0, bad_offset: bool = False) -> bytes:
    e = "<" if order == "II" else ">"
    entries = []
    for k in range(extra_entries):  # harmless tags before the orientation, e.g. ImageWidth
        entries.append(struct.pack(e + "HHI", 0x0100 + k, 4, 1) + struct.pack(e + "I", 100 + k))
    if orientation is not None:
        entries.append(struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "H", orientation) + b"\0\0")
    ifd_offset = 0xFFFF if bad_offset else 8
    body = struct.pack(e + "H", len(entries)) + b"".join(entries) + struct.pack(e + "I", 0)
    return order.encode() + struct.pack(e + "H", 42) + struct.pack(e + "I", ifd_offset) + body


def insert_app1(jpeg: bytes, payload: bytes, after_app0: bool) -> bytes:
    seg = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    assert jpeg[:2] == b"\xff\xd8"
    pos = 2
    if after_app0 and jpeg[2:4] == b"\xff\xe0":
        pos = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:pos] + seg + jpeg[pos:]


# --------------------------------------------------------------------------------------------
# 1. Decoder fixtures


def decode_fixtures(out_dir: Path, shared_images: Path) -> dict:
    rng = np.random.default_rng(SEED)
    dec = out_dir / "decode"
    dec.mkdir(parents=True, exist_ok=True)
    for old in dec.iterdir():
        old.unlink()
    entries = []

    def add(name: str, data: bytes, note: str):
        path = dec / name
        path.write_bytes(data)
        ref = imread_rgb(path)
        assert ref is not None, name
        entries.append({"file": f"decode/{name}", "note": note, "width": ref.shape[1], "height": ref.shape[0],
                        "rgb_base64": b64(ref)})

    # PNG: every colour type and bit depth, odd sizes.
    def samples(h, w, ch, depth):
        return rng.integers(0, 1 << depth, (h, w, ch), dtype=np.int64)

    for depth in (1, 2, 4, 8, 16):
        add(f"png_gray{depth}.png", make_png(samples(5, 11, 1, depth), 0, depth), f"gray {depth}-bit")
    add("png_gray8_trns.png", make_png(samples(5, 7, 1, 8), 0, 8, trns=struct.pack(">H", 17)), "gray 8-bit + tRNS")
    add("png_gray16_trns.png", make_png(samples(4, 6, 1, 16), 0, 16, trns=struct.pack(">H", 4000)), "gray 16 + tRNS")
    for depth in (8, 16):
        add(f"png_graya{depth}.png", make_png(samples(6, 9, 2, depth), 4, depth), f"gray+alpha {depth}-bit")
        add(f"png_rgb{depth}.png", make_png(samples(7, 5, 3, depth), 2, depth), f"RGB {depth}-bit")
        add(f"png_rgba{depth}.png", make_png(samples(5, 8, 4, depth), 6, depth), f"RGBA {depth}-bit (alpha dropped)")
    add("png_rgb8_trns.png", make_png(samples(4, 4, 3, 8), 2, 8, trns=struct.pack(">HHH", 1, 2, 3)), "RGB + tRNS")
    for depth in (1, 2, 4, 8):
        n = 1 << depth
        pal = rng.integers(0, 256, (n, 3))
        add(f"png_pal{depth}.png", make_png(samples(6, 13, 1, depth), 3, depth, palette=pal), f"palette {depth}-bit")
    pal = rng.integers(0, 256, (16, 3))
    add("png_pal8_trns.png", make_png(rng.integers(0, 16, (5, 6, 1)), 3, 8, palette=pal, trns=bytes([0, 64, 128, 255, 7])),
        "palette + tRNS (alpha dropped)")
    # Short palette: indices beyond the palette. libpng maps them to black; keep indices in range except a note.
    # Interlaced (Adam7), including sizes with empty passes.
    add("png_rgb8_interlaced.png", make_png(samples(13, 11, 3, 8), 2, 8, interlace=True), "Adam7 RGB 8")
    add("png_rgba16_interlaced.png", make_png(samples(9, 10, 4, 16), 6, 16, interlace=True), "Adam7 RGBA 16")
    add("png_gray1_interlaced.png", make_png(samples(3, 2, 1, 1), 0, 1, interlace=True), "Adam7 gray 1-bit 2x3")
    pal = rng.integers(0, 256, (16, 3))
    add("png_pal4_interlaced.png", make_png(samples(10, 17, 1, 4), 3, 4, interlace=True, palette=pal), "Adam7 palette 4")
    add("png_1x1.png", make_png(samples(1, 1, 3, 8), 2, 8), "1x1 RGB")
    add("png_split_idat.png", make_png(samples(12, 12, 3, 8), 2, 8, idat_parts=5), "IDAT split into 5 chunks")
    add("png_text_gamma.png", make_png(samples(4, 5, 3, 8), 2, 8,
                                       before_idat=[(b"gAMA", struct.pack(">I", 45455)), (b"tEXt", b"Comment\0hello")]),
        "gAMA + tEXt chunks (gamma not applied)")
    add("png_exif6.png", make_png(samples(3, 5, 3, 8), 2, 8, before_idat=[(b"eXIf", exif_tiff(6, "MM"))]),
        "eXIf orientation 6 before IDAT")
    add("png_exif3_after_idat.png", make_png(samples(3, 5, 3, 8), 2, 8, after_idat=[(b"eXIf", exif_tiff(3, "II"))]),
        "eXIf orientation 3 after IDAT")

    # JPEG: real content (a crop of bus.jpg) so the codec sees natural statistics.
    bus = cv2.imread(str(shared_images / "bus.jpg"))
    crop = np.ascontiguousarray(bus[400:424, 300:332])  # 32x24
    odd = np.ascontiguousarray(bus[500:509, 100:113])  # 13x9

    def jpg(img, *params) -> bytes:
        ok, buf = cv2.imencode(".jpg", img, list(params))
        assert ok
        return buf.tobytes()

    add("jpeg_baseline_420.jpg", jpg(crop, cv2.IMWRITE_JPEG_QUALITY, 90), "baseline 4:2:0")
    add("jpeg_odd_420.jpg", jpg(odd, cv2.IMWRITE_JPEG_QUALITY, 90), "baseline 4:2:0, 13x9")
    add("jpeg_444.jpg", jpg(crop, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444), "4:4:4")
    add("jpeg_422_odd.jpg", jpg(odd, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422), "4:2:2 13x9")
    add("jpeg_progressive.jpg", jpg(crop, cv2.IMWRITE_JPEG_PROGRESSIVE, 1), "progressive")
    add("jpeg_progressive_odd.jpg", jpg(odd, cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_OPTIMIZE, 1),
        "progressive + optimized, 13x9")
    add("jpeg_restart.jpg", jpg(crop, cv2.IMWRITE_JPEG_RST_INTERVAL, 1), "restart markers")
    add("jpeg_gray.jpg", jpg(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)), "grayscale")
    add("jpeg_gray_progressive.jpg", jpg(cv2.cvtColor(odd, cv2.COLOR_BGR2GRAY), cv2.IMWRITE_JPEG_PROGRESSIVE, 1),
        "grayscale progressive")

    # EXIF orientations 1..8 on an asymmetric 12x8 image, both byte orders, APP1 before/after APP0.
    asym = np.ascontiguousarray(bus[300:308, 200:212])
    base = jpg(asym, cv2.IMWRITE_JPEG_QUALITY, 95)
    for o in range(1, 9):
        order = "II" if o % 2 else "MM"
        payload = b"Exif\0\0" + exif_tiff(o, order, extra_entries=o % 3)
        add(f"jpeg_exif{o}.jpg", insert_app1(base, payload, after_app0=o % 2 == 0), f"EXIF orientation {o} ({order})")
    add("jpeg_exif_bad_offset.jpg", insert_app1(base, b"Exif\0\0" + exif_tiff(6, "II", bad_offset=True), True),
        "EXIF with an IFD offset past the end (ignored)")
    add("jpeg_exif9.jpg", insert_app1(base, b"Exif\0\0" + exif_tiff(9, "MM"), True), "EXIF orientation 9 (invalid)")
    add("jpeg_xmp_then_exif.jpg",
        insert_app1(insert_app1(base, b"Exif\0\0" + exif_tiff(8, "II"), True), b"http://ns.adobe.com/xap/1.0/\0<x/>", True),
        "XMP APP1 before the Exif APP1")

    # CMYK as Pillow writes it (an Adobe marker, inverted CMYK), which cv2 turns into colour.
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(crop[..., ::-1].copy()).convert("CMYK").save(buf, "JPEG")
    add("jpeg_cmyk.jpg", buf.getvalue(), "CMYK (Adobe, inverted)")

    return {**header("cv2.imread(path) (IMREAD_COLOR) of each file, converted BGR->RGB"), "images": entries}


def big_image_fixtures(shared_images: Path) -> list:
    out = []
    for name in ("bus.jpg", "zidane.jpg"):
        ref = imread_rgb(shared_images / name)
        out.append({"file": name, "width": ref.shape[1], "height": ref.shape[0], "fnv1a64": fnv1a64(ref.tobytes()),
                    "samples": sparse_samples(ref, 37)})
    return out


# --------------------------------------------------------------------------------------------
# 2. Resize fixtures


def resize_fixtures() -> dict:
    rng = np.random.default_rng(SEED + 1)
    cases = []
    pairs = [((37, 23), (20, 12)), ((37, 23), (74, 46)), ((40, 30), (20, 15)),  # exact 2x down: OpenCV's INTER_AREA path
             ((40, 30), (40, 30)), ((40, 30), (40, 17)), ((40, 30), (13, 30)), ((5, 3), (64, 45)), ((64, 48), (1, 1)),
             ((1, 1), (7, 5)), ((1, 9), (3, 4)), ((33, 1), (5, 2)), ((81, 61), (27, 20)), ((61, 81), (48, 64)),
             ((17, 17), (16, 16)), ((16, 16), (17, 17)), ((90, 20), (31, 7)), ((50, 40), (25, 21)), ((50, 40), (26, 20))]
    for _ in range(14):
        sw, sh = rng.integers(1, 70, 2)
        dw, dh = rng.integers(1, 90, 2)
        pairs.append(((int(sw), int(sh)), (int(dw), int(dh))))
    for (sw, sh), (dw, dh) in pairs:
        src = rng.integers(0, 256, (sh, sw, 3), dtype=np.uint8)
        if rng.random() < 0.3:  # smooth content too (gradients), not only noise
            yy, xx = np.mgrid[0:sh, 0:sw]
            src = ((xx * 7 + yy * 3)[..., None] * np.array([1, 2, 3]) % 256).astype(np.uint8)
        dst = cv2.resize(src, (dw, dh), interpolation=cv2.INTER_LINEAR)
        cases.append({"src_w": sw, "src_h": sh, "dst_w": dw, "dst_h": dh, "src_base64": b64(src), "dst_base64": b64(dst)})
    return {**header("cv2.resize(src, (dst_w, dst_h), interpolation=cv2.INTER_LINEAR) on HxWx3 uint8"), "cases": cases}


# --------------------------------------------------------------------------------------------
# 3. Letterbox geometry, canvases and box mapping


def letterbox_fixtures(shared_images: Path) -> dict:
    import torch
    from ultralytics.data.augment import LetterBox
    from ultralytics.utils import ops

    rng = np.random.default_rng(SEED + 2)
    shapes = [(1080, 810), (720, 1280), (480, 640), (640, 640), (1, 3000), (3000, 1), (333, 500), (501, 333),
              (100, 100), (1000, 17), (17, 1000), (7, 5), (2160, 3840), (479, 641), (427, 640)]
    shapes += [tuple(int(v) for v in rng.integers(1, 2000, 2)) for _ in range(25)]
    geometry = []
    for h, w in shapes:
        for size in (640, 320, 333, (480, 640), (352, 416)):
            for mode in ("letterbox", "square", "stretch"):
                lb = LetterBox(size, auto=mode == "letterbox", scale_fill=mode == "stretch", stride=32)
                p = lb.get_params({"img": np.zeros((h, w, 3), np.uint8)})
                new_h = p["new_unpad"][1] + p["top"] + p["bottom"]  # the canvas LetterBox produces
                new_w = p["new_unpad"][0] + p["left"] + p["right"]
                g = {"h": h, "w": w, "size": list(size) if isinstance(size, tuple) else [size, size], "mode": mode,
                     "ratio_w": p["ratio"][0], "ratio_h": p["ratio"][1], "unpad_w": p["new_unpad"][0],
                     "unpad_h": p["new_unpad"][1], "top": p["top"], "bottom": p["bottom"], "left": p["left"],
                     "right": p["right"], "canvas_h": new_h, "canvas_w": new_w}
                if mode != "stretch":
                    # What the predictor does with boxes on this canvas: scale_boxes(img1_shape, boxes, img0_shape).
                    boxes = torch.tensor(np.stack([
                        rng.uniform(-20, new_w + 20, 4), rng.uniform(-20, new_h + 20, 4),
                        rng.uniform(-20, new_w + 20, 4), rng.uniform(-20, new_h + 20, 4)], 1), dtype=torch.float32)
                    boxes[:, 2:] = torch.maximum(boxes[:, 2:], boxes[:, :2])
                    mapped = ops.scale_boxes((new_h, new_w), boxes.clone(), (h, w))
                    g["boxes"] = boxes.numpy().astype(float).tolist()
                    g["mapped"] = mapped.numpy().astype(float).tolist()
                geometry.append(g)

    canvases = []
    for name, size, mode in [("bus.jpg", 640, "letterbox"), ("bus.jpg", 320, "letterbox"), ("bus.jpg", 333, "letterbox"),
                             ("bus.jpg", 416, "square"), ("bus.jpg", 256, "stretch"), ("zidane.jpg", 640, "letterbox"),
                             ("zidane.jpg", 320, "square"), ("zidane.jpg", 500, "letterbox")]:
        img = cv2.imread(str(shared_images / name))
        lb = LetterBox(size, auto=mode == "letterbox", scale_fill=mode == "stretch", stride=32)
        canvas = np.ascontiguousarray(lb(image=img)[..., ::-1])
        canvases.append({"file": name, "size": size, "mode": mode, "width": canvas.shape[1], "height": canvas.shape[0],
                         "fnv1a64": fnv1a64(canvas.tobytes()), "samples": sparse_samples(canvas, 13)})
    return {**header("ultralytics LetterBox(size, auto, scale_fill, stride=32).get_params / __call__ on cv2.imread "
                     "images (canvas in RGB); ops.scale_boxes on float32 torch boxes"),
            "geometry": geometry, "canvases": canvases}


# --------------------------------------------------------------------------------------------
# 4. NMS reference


def nms_fixtures() -> dict:
    import torch
    import torchvision  # noqa: F401  (non_max_suppression uses torchvision.ops.nms when it is imported)
    from ultralytics.utils import nms

    rng = np.random.default_rng(SEED + 3)
    cases = []
    settings = [
        dict(conf=0.25, iou=0.7, agnostic=False, classes=None, max_det=300),
        dict(conf=0.25, iou=0.7, agnostic=True, classes=None, max_det=300),
        dict(conf=0.1, iou=0.45, agnostic=False, classes=[0, 2], max_det=300),
        dict(conf=0.3, iou=0.5, agnostic=False, classes=None, max_det=7),
        dict(conf=0.05, iou=0.3, agnostic=True, classes=[1], max_det=300),
        dict(conf=0.2, iou=0.9, agnostic=False, classes=None, max_det=300),
    ]
    for k, s in enumerate(settings):
        nc, anchors = (3, 400) if k % 2 == 0 else (5, 257)
        # Clustered boxes so that NMS has real work: a few centres, jittered.
        centres = rng.uniform(40, 600, (12, 2))
        pick = rng.integers(0, len(centres), anchors)
        xy = centres[pick] + rng.normal(0, 12, (anchors, 2))
        wh = rng.uniform(10, 120, (anchors, 2))
        scores = rng.uniform(0, 1, (nc, anchors)) ** 3
        pred = np.concatenate([xy.T, wh.T, scores], 0).astype(np.float32)  # [4+nc, A]
        # A few exact score ties, to pin the (stable) order.
        pred[4, 10:14] = np.float32(0.8)
        out = nms.non_max_suppression(torch.from_numpy(pred)[None], s["conf"], s["iou"], classes=s["classes"],
                                      agnostic=s["agnostic"], max_det=s["max_det"])[0]
        cases.append({**s, "nc": nc, "anchors": anchors, "pred_base64": b64(pred.astype("<f4")),
                      "expected": out.numpy().astype(float).tolist()})
    return {**header("ultralytics.utils.nms.non_max_suppression(pred[None], conf, iou, classes, agnostic, max_det) "
                     "with torchvision.ops.nms; pred is [4+nc, anchors] float32 little-endian; expected rows are "
                     "x1 y1 x2 y2 conf cls"), "cases": cases}


def dump(obj: dict) -> str:
    """JSON with the header readable and each case on one compact line (keeps the files small)."""
    parts = []
    for key, value in obj.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            body = ",\n  ".join(json.dumps(v, separators=(",", ":")) for v in value)
            parts.append(f"{json.dumps(key)}: [\n  {body}\n]")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--images", type=Path, default=None, help="folder with bus.jpg and zidane.jpg")
    args = ap.parse_args()
    root = args.root
    shared = args.images or (root.parent / "shared" / "images")
    img_dir = root / "Tests" / "Fixtures" / "images"
    det_dir = root / "Tests" / "YOLODetectTests" / "Fixtures"
    img_dir.mkdir(parents=True, exist_ok=True)
    det_dir.mkdir(parents=True, exist_ok=True)

    decode = decode_fixtures(img_dir, shared)
    decode["large"] = big_image_fixtures(shared)
    (img_dir / "decode.json").write_text(dump(decode))
    (img_dir / "resize.json").write_text(dump(resize_fixtures()))
    (img_dir / "letterbox.json").write_text(dump(letterbox_fixtures(shared)))
    (det_dir / "nms.json").write_text(dump(nms_fixtures()))
    total = sum(p.stat().st_size for d in (img_dir, det_dir) for p in d.rglob("*") if p.is_file())
    print(f"wrote fixtures: {total / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
