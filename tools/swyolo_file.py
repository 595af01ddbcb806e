"""Writer and reader of the SwiftYOLO tensor file (`.swyolo`), format version 1.

The layout is fixed by docs/weight-file.md: a 64-byte header, UTF-8 JSON metadata, a tensor table,
then little-endian float32 data with every tensor on a 64-byte boundary. numpy only.
"""

import hashlib
import json
import math
import os
import stat
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


def check_output_path(output, inputs):
    """Refuse an output path whose replacement could destroy data; raises `TensorFileError` with the reason.

    A tool's output may only be absent or an existing SwiftYOLO file (so re-running a tool replaces
    its own earlier output). Refused: the same file as any input (`inputs` maps a role such as
    "checkpoint" to its path; hard links and symbolic links count), a symbolic link (we never write
    through or replace a link we did not make), a directory, a FIFO or device, and a regular file
    that does not start with the SwiftYOLO magic. Nothing is opened but a regular file's first bytes,
    without following links or blocking, so the tools call this before their slow work.
    """
    try:
        link_status = os.lstat(output)
    except FileNotFoundError:
        return
    except OSError as error:
        raise TensorFileError(f"cannot check the output {output}: {error.strerror or error}") from None
    try:
        output_status = os.stat(output)  # follows a link, so a link to an input is named as that input
    except OSError:
        output_status = None
    if output_status is not None:
        for role, path in inputs.items():
            try:
                input_status = os.stat(path)
            except OSError:
                continue  # an unreadable or missing input is reported when the tool reads it
            if (input_status.st_dev, input_status.st_ino) == (output_status.st_dev, output_status.st_ino):
                raise TensorFileError(f"the output {output} is the same file as the input {role} {path}; "
                                      "choose another output path")
    if stat.S_ISLNK(link_status.st_mode):
        raise TensorFileError(f"the output {output} is a symbolic link; SwiftYOLO's tools never write through "
                              "or replace a link: choose another output path or remove the link")
    if stat.S_ISDIR(link_status.st_mode):
        raise TensorFileError(f"the output {output} is a directory; name a file inside it")
    if not stat.S_ISREG(link_status.st_mode):
        raise TensorFileError(f"the output {output} is not a regular file (a FIFO, socket or device); "
                              "choose another output path")
    if _read_magic(output) != MAGIC:
        raise TensorFileError(f"refusing to overwrite {output}: it is not a SwiftYOLO file; "
                              "choose another output path or remove it first")


def _read_magic(path):
    """The first bytes of the regular file at `path` (as many as MAGIC has), read without following a
    link or blocking on a FIFO swapped in since it was checked."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise TensorFileError(f"the output {path} is not a regular file; choose another output path")
            return os.read(fd, len(MAGIC))
        finally:
            os.close(fd)
    except OSError as error:
        raise TensorFileError(f"cannot check the output {path}: {error.strerror or error}") from None


def write_bytes_atomically(path, data, *, inputs):
    """Write `data` to `path` so that neither a failure nor a crash leaves a partial file under `path`.

    `path` is checked first (`check_output_path` with `inputs`, again, as it may have changed while
    the tool worked). The bytes go to a temporary file (mode 0o644) in the same folder, are flushed
    and fsynced, then renamed over `path`; the folder is fsynced after, where the system allows. Any
    failure (disk full, file-size limit, Ctrl-C) removes the temporary; an OSError is raised again
    as a `TensorFileError` "cannot write PATH: reason", the one-line error the tools print.
    """
    check_output_path(path, inputs)
    folder = os.path.dirname(os.path.abspath(path))
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".swyolo")
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o644)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        if temporary is not None:
            _remove_temporary(temporary)
        if isinstance(error, OSError):
            raise TensorFileError(f"cannot write {path}: {error.strerror or error}") from None
        raise
    _fsync_folder(folder)


def _remove_temporary(path):
    """Remove a temporary we made, without letting a failure to remove it hide the error being raised."""
    try:
        os.unlink(path)
    except OSError:
        pass


def _fsync_folder(folder):
    """Make a rename durable by fsyncing its folder; best effort, as not every system can open a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # the file itself is already durable; a folder that cannot be synced is not an error
    finally:
        os.close(fd)


def write_tensor_file(path, metadata, tensors, *, inputs):
    """Write a tensor file (see `encode_tensor_file`) through `write_bytes_atomically`; returns its SHA-256."""
    data = encode_tensor_file(metadata, tensors)
    write_bytes_atomically(path, data, inputs=inputs)
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
