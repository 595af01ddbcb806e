"""COCO run-length encoding of binary masks, in the compressed string form pycocotools reads.

numpy only. A mask is flattened in column-major order (pycocotools' Fortran order); the counts
alternate runs of 0s and 1s, starting with 0s. The string packs each count (from the fourth on, as
the difference with the count two before) in little-endian groups of 5 bits, each group + 48 as one
character, bit 0x20 marking "more groups follow" (pycocotools `rleToString` / `rleFrString`).
"""

import numpy as np


def run_lengths(mask):
    """The counts of a [H, W] mask: alternating runs of 0 and 1 in column-major order, 0s first."""
    flat = np.asarray(mask, dtype=bool).ravel(order="F")
    if flat.size == 0:
        return []
    changes = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    bounds = np.concatenate([[0], changes, [flat.size]])
    counts = np.diff(bounds).tolist()
    return ([0] + counts) if flat[0] else counts


def counts_to_string(counts):
    """pycocotools' rleToString."""
    out = []
    for i, count in enumerate(counts):
        x = int(count) - (int(counts[i - 2]) if i > 2 else 0)
        more = True
        while more:
            c = x & 0x1F
            x >>= 5  # arithmetic shift, as on the C long
            more = x != -1 if c & 0x10 else x != 0
            if more:
                c |= 0x20
            out.append(chr(c + 48))
    return "".join(out)


def string_to_counts(text):
    """pycocotools' rleFrString."""
    counts, p = [], 0
    while p < len(text):
        x, k, more = 0, 0, True
        while more:
            c = ord(text[p]) - 48
            x |= (c & 0x1F) << (5 * k)
            more = bool(c & 0x20)
            p += 1
            k += 1
            if not more and c & 0x10:
                x |= -1 << (5 * k)
        if len(counts) > 2:
            x += counts[-2]
        counts.append(x)
    return counts


def encode(mask):
    """{"size": [H, W], "counts": STRING} of a [H, W] binary mask."""
    height, width = np.shape(mask)
    return {"size": [int(height), int(width)], "counts": counts_to_string(run_lengths(mask))}


def decode(rle):
    """The [H, W] bool mask of {"size": [H, W], "counts": STRING}."""
    height, width = rle["size"]
    counts = string_to_counts(rle["counts"])
    if sum(counts) != height * width or any(c < 0 for c in counts):
        raise ValueError(f"RLE counts sum to {sum(counts)} with negatives {any(c < 0 for c in counts)}, "
                         f"not to {height}x{width}")
    values = np.zeros(height * width, dtype=bool)
    position = 0
    for i, count in enumerate(counts):
        if i % 2:
            values[position:position + count] = True
        position += count
    return values.reshape((width, height)).T
