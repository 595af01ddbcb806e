#!/usr/bin/env python3
"""Make the "untuned" parity test images: real photos in the formats a user may feed `swift-yolo detect`.

Needs the torch + ultralytics environment of tools/requirements-golden.txt (of it, only numpy,
Pillow and opencv-python are used); only to regenerate, the tests read the committed files.

Usage: python tools/parity_images.py --out Tests/Fixtures/images/parity [--shared ../shared/images]

From ../shared/images/bus.jpg (810x1080) and zidane.jpg (1280x720) it writes, deterministically:

  gray_bus.png          8-bit grayscale PNG (colour type 0); OpenCV replicates it to 3 channels
  rgba_zidane.png       8-bit RGBA PNG, alpha a left-to-right gradient 0..255; OpenCV's IMREAD_COLOR
                        DROPS alpha (no compositing), so detections are computed on the stored RGB
  rgb16_bus.png         16-bit RGB PNG with genuine 16-bit values (area-resized in float); OpenCV's
                        IMREAD_COLOR keeps the HIGH byte of each sample (v >> 8, not a rounded v/257)
  palette_zidane.png    8-bit palette PNG (colour type 3, 256 colours, no dithering)
  crop_bus_333x251.jpg  odd-size JPEG (333 wide, 251 high), a full-resolution crop of bus.jpg
  exif3_bus.jpg         JPEG whose pixels are stored rotated 180 deg, EXIF Orientation 3
  exif6_zidane.jpg      stored rotated 90 deg counter-clockwise, Orientation 6 (view: rotate 90 CW)
  exif8_bus.jpg         stored rotated 90 deg clockwise, Orientation 8 (view: rotate 90 CCW)
  exif5_zidane.jpg      stored transposed (mirrored about the main diagonal), Orientation 5
  exif7_bus.jpg         stored transversed (mirrored about the anti-diagonal), Orientation 7

Each EXIF JPEG is made so that a decoder that honours the Orientation tag (cv2.imread, PIL's
ImageOps.exif_transpose) shows the upright picture; the script checks that cv2.imread returns, for
every file, exactly the transform of the raw stored pixels it intends, and prints the shapes.
Longest side <= 400 px; JPEGs are quality 85, 4:2:0 (Pillow's defaults besides quality).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

try:
    import cv2
    import numpy as np
    from PIL import Image, ImageOps
except ImportError as error:
    sys.exit(f"parity_images.py: needs numpy, Pillow and opencv-python ({error}); "
             "pip install -r tools/requirements-golden.txt")

JPEG_QUALITY = 85
ORIENTATION_TAG = 0x0112

# How to store an upright picture so that EXIF orientation O displays it upright:
# the inverse of the transform a viewer applies (PIL's exif_transpose table).
STORE_FOR_ORIENTATION = {
    3: Image.Transpose.ROTATE_180,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,    # PIL's ROTATE_90 is counter-clockwise
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def view_transform(stored: np.ndarray, orientation: int) -> np.ndarray:
    """What an EXIF-aware decoder shows for raw stored pixels (H, W, C) tagged with `orientation`."""
    if orientation == 1:
        return stored
    if orientation == 3:
        return stored[::-1, ::-1]
    if orientation == 5:  # transpose
        return stored.transpose(1, 0, 2)
    if orientation == 6:  # rotate 90 clockwise
        return np.rot90(stored, k=-1)
    if orientation == 7:  # transverse
        return np.rot90(stored, k=2).transpose(1, 0, 2)
    if orientation == 8:  # rotate 90 counter-clockwise
        return np.rot90(stored, k=1)
    raise ValueError(orientation)


def load_rgb(path: Path) -> Image.Image:
    image = Image.open(path)
    image.load()
    return image.convert("RGB")


def shrink(image: Image.Image, longest: int) -> np.ndarray:
    """Area-resize to the given longest side, as float32 RGB in 0..255 (not yet quantized)."""
    w, h = image.size
    scale = longest / max(w, h)
    size = (round(w * scale), round(h * scale))
    return cv2.resize(np.asarray(image, dtype=np.float32), size, interpolation=cv2.INTER_AREA)


def to_u8(a: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def save_jpeg(path: Path, rgb: np.ndarray, orientation: int | None = None) -> None:
    image = Image.fromarray(rgb, "RGB")
    kwargs = {"quality": JPEG_QUALITY, "optimize": False, "progressive": False}
    if orientation is not None:
        exif = Image.Exif()
        exif[ORIENTATION_TAG] = orientation
        kwargs["exif"] = exif.tobytes()
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **kwargs)
    path.write_bytes(buffer.getvalue())


def save_png(path: Path, image: Image.Image) -> None:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    path.write_bytes(buffer.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--shared", type=Path, default=None,
                        help="folder with bus.jpg and zidane.jpg (default: ../shared/images beside the repo)")
    args = parser.parse_args()
    shared = args.shared or Path(__file__).resolve().parents[1].parent / "shared" / "images"
    bus, zidane = load_rgb(shared / "bus.jpg"), load_rgb(shared / "zidane.jpg")
    args.out.mkdir(parents=True, exist_ok=True)

    # name -> (what cv2.imread must return, as RGB uint8), checked after writing
    expected: dict[str, np.ndarray] = {}

    # 8-bit grayscale PNG
    gray = to_u8(cv2.cvtColor(shrink(bus, 320), cv2.COLOR_RGB2GRAY))
    save_png(args.out / "gray_bus.png", Image.fromarray(gray, "L"))
    expected["gray_bus.png"] = np.repeat(gray[..., None], 3, axis=2)

    # RGBA PNG with an alpha gradient: OpenCV drops alpha
    rgb = to_u8(shrink(zidane, 400))
    h, w = rgb.shape[:2]
    alpha = np.tile(np.rint(np.linspace(0, 255, w)).astype(np.uint8), (h, 1))
    save_png(args.out / "rgba_zidane.png", Image.fromarray(np.dstack([rgb, alpha]), "RGBA"))
    expected["rgba_zidane.png"] = rgb

    # 16-bit RGB PNG with genuine 16-bit samples
    rgb16 = np.clip(np.rint(shrink(bus, 256) * (65535.0 / 255.0)), 0, 65535).astype(np.uint16)
    ok = cv2.imwrite(str(args.out / "rgb16_bus.png"), cv2.cvtColor(rgb16, cv2.COLOR_RGB2BGR),
                     [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert ok
    expected["rgb16_bus.png"] = (rgb16 >> 8).astype(np.uint8)

    # palette PNG
    pal = Image.fromarray(to_u8(shrink(zidane, 320)), "RGB").quantize(
        colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    save_png(args.out / "palette_zidane.png", pal)
    expected["palette_zidane.png"] = np.asarray(pal.convert("RGB"))

    # odd-size crop (full resolution, so no resampling)
    crop = np.asarray(bus)[430:430 + 251, 30:30 + 333]
    save_jpeg(args.out / "crop_bus_333x251.jpg", np.ascontiguousarray(crop))
    expected["crop_bus_333x251.jpg"] = None  # lossy: checked against the plain decode below

    # EXIF-rotated JPEGs: stored transformed, tagged so that the view is upright
    for orientation, source, name in [(3, bus, "exif3_bus.jpg"), (6, zidane, "exif6_zidane.jpg"),
                                      (8, bus, "exif8_bus.jpg"), (5, zidane, "exif5_zidane.jpg"),
                                      (7, bus, "exif7_bus.jpg")]:
        upright = Image.fromarray(to_u8(shrink(source, 400)), "RGB")
        stored = upright.transpose(STORE_FOR_ORIENTATION[orientation])
        save_jpeg(args.out / name, np.asarray(stored), orientation)
        expected[name] = ("exif", orientation, np.asarray(upright))

    # Check what OpenCV (as Ultralytics calls it) returns for every file
    failures = 0
    total = 0
    for name in sorted(expected):
        path = args.out / name
        total += path.stat().st_size
        seen = cv2.imread(str(path), cv2.IMREAD_COLOR)
        assert seen is not None, name
        seen = seen[..., ::-1]  # BGR -> RGB
        raw = cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)[..., ::-1]
        want = expected[name]
        note = ""
        if isinstance(want, tuple):  # EXIF JPEG: exact transform of the raw decode, close to the upright source
            _, orientation, upright = want
            exact = np.array_equal(seen, view_transform(raw, orientation))
            err = np.abs(seen.astype(int) - upright.astype(int)).mean() if seen.shape == upright.shape else float("inf")
            with Image.open(path) as im:  # an independent reading of the tag: PIL's exif_transpose
                pil_view = np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
            pil_err = np.abs(seen.astype(int) - pil_view.astype(int)).mean() if seen.shape == pil_view.shape \
                else float("inf")
            good = exact and err < 8 and pil_err < 1 and (raw.shape != seen.shape) == (orientation in (5, 6, 7, 8))
            note = f"raw {raw.shape[1]}x{raw.shape[0]} -> viewed {seen.shape[1]}x{seen.shape[0]}, " \
                   f"mean |view - upright source| {err:.2f}, |cv2 - PIL exif_transpose| {pil_err:.2f}"
        elif want is None:  # lossy crop
            good = seen.shape == (251, 333, 3) and np.array_equal(seen, raw)
            note = f"mean |decode - source| {np.abs(seen.astype(int) - crop.astype(int)).mean():.2f}"
        else:  # lossless PNG: exact
            good = np.array_equal(seen, want)
            note = "exact"
        with Image.open(path) as im:
            mode = f"{im.format} {im.mode}"
        if path.suffix == ".png":  # IHDR bit depth and colour type
            header = path.read_bytes()[24:26]
            mode = f"PNG {header[0]}-bit ct{header[1]}"
        print(f"{name:24s} {mode:15s} cv2.imread HxWxC {str(seen.shape):15s} {path.stat().st_size:7d} B  "
              f"{'ok' if good else 'MISMATCH'}  {note}")
        failures += not good
    print(f"{len(expected)} images, {total} bytes in {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
