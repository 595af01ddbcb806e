#!/usr/bin/env python3
"""Write the hostile image fixtures of Tests/Fixtures/images/hostile (python3 + zlib only).

Usage: python3 tools/fuzz/hostile_images.py [OUT_DIR]

- ztxt-bomb.png, iccp-bomb.png: an 8x8 image with an ancillary chunk whose zlib stream expands to
  64 MB (libpng's chunk allocation limit stops it);
- strip-1x60000.png: a valid 1 x 60,000 grey strip (a row pointer per row would cost 480 KB; the
  crop preprocessing of it once asked for 640 x 38,400,000 pixels);
- side-70000.png: a header claiming 70,000 x 1 (70,000 pixels, under the pixel limit, over the side limit);
- lying-size.png: a header claiming 6,000 x 6,000 over a few bytes of image data.
"""

import os
import struct
import sys
import zlib

from fixture_files import write_fixtures


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, color_type, rows, extra=b""):
    """A PNG with 8-bit samples; `rows` is the raw (unfiltered) image data, filter byte 0 per row."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def fixtures():
    small_rows = b"".join(b"\x00" + bytes([x * 30 % 256, 90, 200]) * 8 for x in range(8))
    bomb = zlib.compress(bytes(64 << 20), 9)
    yield "ztxt-bomb.png", png(8, 8, 2, small_rows, chunk(b"zTXt", b"Comment\x00\x00" + bomb))
    yield "iccp-bomb.png", png(8, 8, 2, small_rows, chunk(b"iCCP", b"profile\x00\x00" + bomb))
    yield "strip-1x60000.png", png(1, 60_000, 0, b"".join(b"\x00" + bytes([y % 251]) for y in range(60_000)))
    header_only = lambda w, h: b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    yield "side-70000.png", header_only(70_000, 1) + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b"")
    yield "lying-size.png", header_only(6_000, 6_000) + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b"")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "Tests", "Fixtures", "images", "hostile")
    write_fixtures(out, fixtures())


if __name__ == "__main__":
    main()
