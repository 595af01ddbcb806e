"""Writer and reader of the SwiftYOLO tensor file (`.swyolo`), format version 1.

The layout is fixed by docs/weight-file.md: a 64-byte header, UTF-8 JSON metadata, a tensor table,
then little-endian float32 data with every tensor on a 64-byte boundary. numpy only.
"""

import hashlib
import json
import math
import os
import struct
import tempfile

import numpy as np

MAGIC = b"SWYOLOTF"
FORMAT_VERSION = 1
ALIGNMENT = 64
HEADER = struct.Struct("<8sIIQQQQQQ")  # magic, version, count, meta off/len, table off/len, data off/len
DTYPE_FLOAT32 = 0
MAX_NAME_LENGTH = 1024
MAX_RANK = 8


class TensorFileError(Exception):
    """A tensor file that is malformed or cannot be written; the message names the file and tensor."""


def _align(n):
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def file_sha256(path):
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def encode_tensor_file(metadata, tensors):
    """Return the bytes of a tensor file.

    - Parameters:
      - metadata: a JSON-serializable dict (written as UTF-8 JSON, strict: no NaN/Infinity).
      - tensors: an iterable of (name, array) pairs in file order; arrays are stored as float32.
    """
    meta_bytes = json.dumps(metadata, ensure_ascii=False, allow_nan=False).encode("utf-8")
    table, blobs, seen, offset = [], [], set(), 0
    for name, array in tensors:
        if not isinstance(name, str):
            raise TensorFileError(f"tensor name {name!r} is not a string")
        name_bytes = name.encode("utf-8")
        if not 1 <= len(name_bytes) <= MAX_NAME_LENGTH:
            raise TensorFileError(f"tensor '{name}': name length {len(name_bytes)} outside 1...{MAX_NAME_LENGTH}")
        if name in seen:
            raise TensorFileError(f"tensor '{name}': duplicate name")
        seen.add(name)
        data = np.ascontiguousarray(array, dtype="<f4")
        if data.ndim > MAX_RANK:
            raise TensorFileError(f"tensor '{name}': rank {data.ndim} exceeds {MAX_RANK}")
        table.append(struct.pack("<I", len(name_bytes)) + name_bytes
                     + struct.pack(f"<II{data.ndim}QQQ", DTYPE_FLOAT32, data.ndim, *data.shape, offset, data.nbytes))
        blobs.append((offset, data.tobytes()))
        offset = _align(offset + data.nbytes)
    table_bytes = b"".join(table)
    table_offset = ALIGNMENT + len(meta_bytes)
    data_offset = _align(table_offset + len(table_bytes))
    data_length = blobs[-1][0] + len(blobs[-1][1]) if blobs else 0

    out = bytearray(data_offset + data_length)  # zero-filled, so every gap is zero padding
    out[:HEADER.size] = HEADER.pack(MAGIC, FORMAT_VERSION, len(blobs), ALIGNMENT, len(meta_bytes),
                                    table_offset, len(table_bytes), data_offset, data_length)
    out[ALIGNMENT:table_offset] = meta_bytes
    out[table_offset:table_offset + len(table_bytes)] = table_bytes
    for blob_offset, blob in blobs:
        start = data_offset + blob_offset
        out[start:start + len(blob)] = blob
    return bytes(out)


def write_bytes_atomically(path, data):
    """Write `data` to `path` through a temporary file in the same folder, so a failure leaves no partial file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".swyolo")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_tensor_file(path, metadata, tensors):
    """Write a tensor file (see `encode_tensor_file`) and return its bytes' SHA-256."""
    data = encode_tensor_file(metadata, tensors)
    write_bytes_atomically(path, data)
    return hashlib.sha256(data).hexdigest()


def decode_tensor_file(data, source="<bytes>"):
    """Validate and decode tensor-file bytes into (metadata dict, {name: read-only float32 array}).

    Checks magic, version, header bounds, metadata JSON, every table entry (name, dtype, rank, byte
    length, 64-byte alignment, bounds), duplicates, overlaps and zero padding; raises `TensorFileError`
    naming `source` and the offending tensor.
    """
    def fail(message):
        raise TensorFileError(f"{source}: {message}")

    if len(data) < HEADER.size:
        fail(f"file is {len(data)} bytes, shorter than the {HEADER.size}-byte header")
    (magic, version, count, meta_offset, meta_length, table_offset, table_length,
     data_offset, data_length) = HEADER.unpack_from(data)
    if magic != MAGIC:
        fail(f"bad magic {magic!r}, expected {MAGIC!r}")
    if version != FORMAT_VERSION:
        fail(f"unsupported format version {version}, expected {FORMAT_VERSION}")
    if meta_offset != ALIGNMENT:
        fail(f"metadata offset {meta_offset}, expected {ALIGNMENT}")
    if table_offset < meta_offset + meta_length:
        fail(f"tensor table at {table_offset} overlaps metadata ending at {meta_offset + meta_length}")
    if data_offset % ALIGNMENT or data_offset < table_offset + table_length:
        fail(f"data offset {data_offset} is unaligned or overlaps the tensor table")
    if data_offset + data_length != len(data):
        fail(f"file is {len(data)} bytes, header says {data_offset + data_length} (data offset + data length)")
    if any(data[meta_offset + meta_length:table_offset]) or any(data[table_offset + table_length:data_offset]):
        fail("non-zero padding between sections")

    try:
        metadata = json.loads(bytes(data[meta_offset:meta_offset + meta_length]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        fail(f"metadata is not UTF-8 JSON: {error}")
    if not isinstance(metadata, dict):
        fail("metadata is not a JSON object")

    tensors, extents = {}, []
    cursor, table_end = table_offset, table_offset + table_length
    for index in range(count):
        def take(size, what):
            nonlocal cursor
            if cursor + size > table_end:
                fail(f"tensor table entry {index}: truncated while reading {what}")
            chunk = data[cursor:cursor + size]
            cursor += size
            return chunk

        (name_length,) = struct.unpack("<I", take(4, "name length"))
        if not 1 <= name_length <= MAX_NAME_LENGTH:
            fail(f"tensor table entry {index}: name length {name_length} outside 1...{MAX_NAME_LENGTH}")
        try:
            name = bytes(take(name_length, "name")).decode("utf-8")
        except UnicodeDecodeError:
            fail(f"tensor table entry {index}: name is not UTF-8")
        dtype, rank = struct.unpack("<II", take(8, f"dtype and rank of '{name}'"))
        if dtype != DTYPE_FLOAT32:
            fail(f"tensor '{name}': unsupported dtype {dtype} (version 1 has only 0 = float32)")
        if rank > MAX_RANK:
            fail(f"tensor '{name}': rank {rank} exceeds {MAX_RANK}")
        dims = struct.unpack(f"<{rank}Q", take(8 * rank, f"dims of '{name}'"))
        offset, length = struct.unpack("<QQ", take(16, f"offset and length of '{name}'"))
        if name in tensors:
            fail(f"tensor '{name}': duplicate name")
        elements = math.prod(dims)
        if length != 4 * elements:
            fail(f"tensor '{name}': byte length {length}, expected {4 * elements} for shape {list(dims)}")
        if offset % ALIGNMENT:
            fail(f"tensor '{name}': offset {offset} is not a multiple of {ALIGNMENT}")
        if offset + length > data_length:
            fail(f"tensor '{name}': bytes {offset}..<{offset + length} lie outside the data section "
                 f"({data_length} bytes)")
        start = data_offset + offset
        tensors[name] = np.frombuffer(data, dtype="<f4", count=elements, offset=start).reshape(dims)
        extents.append((offset, offset + length, name))
    if cursor != table_end:
        fail(f"tensor table has {table_end - cursor} bytes left after {count} entries")

    position, previous = 0, None
    for start, end, name in sorted(extents):
        if start < position:
            fail(f"tensor '{name}' overlaps tensor '{previous}'")
        if any(data[data_offset + position:data_offset + start]):
            fail(f"non-zero padding before tensor '{name}'")
        position, previous = max(position, end), name
    if any(data[data_offset + position:]):
        fail("non-zero bytes after the last tensor")
    return metadata, tensors


def read_tensor_file(path):
    """Read and validate a tensor file; returns (metadata, {name: float32 array}) in file order."""
    with open(path, "rb") as f:
        data = f.read()
    return decode_tensor_file(data, source=os.fspath(path))
