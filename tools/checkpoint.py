"""Read an Ultralytics `.pt` checkpoint with python3 + numpy only, without ever running its code.

A `.pt` is a zip holding `<prefix>/data.pkl` (a pickle) and `<prefix>/data/<key>` (raw tensor
storages). The pickle is read by a restricted unpickler: the few globals a checkpoint needs (tensor
and storage rebuilders, OrderedDict, set, ...) resolve to safe numpy-based stand-ins, and every other
global becomes an inert `Record` that only stores its arguments and state. Nothing from the file is
ever called.
"""

import collections
import dataclasses
import io
import math
import os
import pickle
import pickletools
import stat
import zipfile
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Limits:
    """What a checkpoint may ask of the reader; each refusal names the limit (`convert.py --limit NAME=N`).

    yolo11n.pt, for scale: 509 zip entries, a 126 KB pickle of 52,000 opcodes and 11,000 memo
    entries, 5 MB of stored (uncompressed) tensors, modules nested 6 deep.
    """

    max_zip_entries: int = 100_000
    max_pickle_bytes: int = 256 << 20
    max_total_bytes: int = 4 << 30  # sum of the entries' declared uncompressed sizes
    max_compression_ratio: int = 100  # uncompressed / compressed size of an entry, and of them all (torch stores, 1:1)
    max_pickle_opcodes: int = 2_000_000  # each may build an object: bounds the number of objects in the tree
    max_pickle_depth: int = 1_000  # objects nested in objects as the pickle builds them (hashing a deep tuple recurses in C)
    tensor_slack_bytes: int = 64 << 20  # rebuilt tensors may exceed the archive's bytes by this much
    max_nesting: int = 100  # module and container nesting accepted when walking the unpickled objects
    max_walk_nodes: int = 1_000_000  # objects visited when walking the modules and the yaml (shared ones count each time)

    @classmethod
    def parse(cls, assignments):
        """Limits from `NAME=N` strings (the names of the fields), for command-line options."""
        fields = {field.name for field in dataclasses.fields(cls)}
        values = {}
        for assignment in assignments:
            name, _, value = assignment.partition("=")
            name = name.strip().replace("-", "_")
            if name not in fields or not value.strip().isdigit():
                raise ValueError(f"--limit {assignment!r}: expected NAME=N with NAME one of {', '.join(sorted(fields))}")
            values[name] = int(value)
        return cls(**values)

    def exceeded(self, name, what):
        """The refusal for `what` going past the limit `name`."""
        return CheckpointError(f"{what} (limit {name}={getattr(self, name)}; raise it with --limit {name}=N)")


DEFAULT_LIMITS = Limits()


class CheckpointError(Exception):
    """A checkpoint that is refused; the message says why in one line (without the file name)."""


# --- inert records -------------------------------------------------------------------------------

class Record:
    """Inert stand-in for an object of a global the unpickler does not resolve.

    REDUCE (`cls(*args)`), NEWOBJ (`cls.__new__(cls, *args)`), BUILD (`__setstate__`) and the
    list/dict filling opcodes only store what they are given.
    """

    module = ""
    name = ""

    def __new__(cls, *args, **kwargs):
        record = object.__new__(cls)
        record.args, record.kwargs = args, kwargs
        record.state, record.items, record.called = None, [], False
        return record

    def __init__(self, *args, **kwargs):
        self.called = True  # reached through REDUCE: a call of the global, not an object rebuild

    def __setstate__(self, state):
        self.state = state

    def append(self, item):
        self.items.append(item)

    def extend(self, items):
        self.items.extend(items)

    def __setitem__(self, key, value):
        self.items.append((key, value))

    @classmethod
    def qualified_name(cls):
        return f"{cls.module}.{cls.name}"

    def __repr__(self):
        return f"<inert {self.qualified_name()}>"


def describe(obj):
    """Short description of an unpickled value for error messages."""
    if isinstance(obj, Record):
        kind = "a call to the disallowed global" if obj.called else "an object of"
        return f"{kind} {obj.qualified_name()}"
    if isinstance(obj, type) and issubclass(obj, Record):
        return f"the disallowed global {obj.qualified_name()}"
    return f"a {type(obj).__name__}"


# --- safe stand-ins for the globals a checkpoint needs --------------------------------------------

class _Sealed:
    """Slots and a refusing __setstate__: a pickle's BUILD opcode cannot rewrite these objects."""

    __slots__ = ()

    def __setstate__(self, state):
        raise CheckpointError(f"the pickle tries to modify {type(self).__name__} {self!r}")


class StorageType(_Sealed):
    """A `torch.<X>Storage` class: names the element type of a persistent storage."""

    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype

    def __repr__(self):
        return f"torch.{self.name}"


class Storage(_Sealed):
    """One storage read from `<prefix>/data/<key>` as a flat numpy array."""

    __slots__ = ("key", "array")

    def __init__(self, key, array):
        self.key, self.array = key, array

    def __repr__(self):
        return f"storage 'data/{self.key}'"


STORAGE_DTYPES = {
    "HalfStorage": np.dtype("<f2"), "FloatStorage": np.dtype("<f4"), "DoubleStorage": np.dtype("<f8"),
    "BFloat16Storage": np.dtype("<u2"),  # widened to float32 on load: numpy has no bfloat16
    "LongStorage": np.dtype("<i8"), "IntStorage": np.dtype("<i4"), "ShortStorage": np.dtype("<i2"),
    "CharStorage": np.dtype("i1"), "ByteStorage": np.dtype("u1"), "BoolStorage": np.dtype("?"),
    "UntypedStorage": np.dtype("u1"),
}


def _tensor_view(storage, storage_offset, size, stride):
    """numpy twin of torch._utils._rebuild_tensor(_v2): a bounds-checked, read-only strided view."""
    if not isinstance(storage, Storage):
        raise CheckpointError(f"tensor rebuilt from {describe(storage)} instead of a storage")
    size, stride = tuple(size), tuple(stride)
    ints = (storage_offset, *size, *stride)
    if len(size) != len(stride) or not all(isinstance(v, int) and v >= 0 for v in ints):
        raise CheckpointError(f"storage 'data/{storage.key}': invalid tensor view offset={storage_offset!r} "
                              f"size={size!r} stride={stride!r}")
    array = storage.array
    if math.prod(size) == 0:
        return np.zeros(size, dtype=array.dtype)
    last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
    if last >= array.size:
        raise CheckpointError(f"storage 'data/{storage.key}': tensor of shape {list(size)} at offset "
                              f"{storage_offset} needs element {last}, storage has {array.size}")
    return np.lib.stride_tricks.as_strided(array[storage_offset:], shape=size,
                                           strides=[s * array.itemsize for s in stride], writeable=False)


def _rebuild_parameter(data, *_ignored):
    """torch._utils._rebuild_parameter(_with_state): a Parameter is its tensor."""
    return data


def _rebuild_from_type_v2(func, _new_type, args, _state):
    """torch._tensor._rebuild_from_type_v2: `func` is itself a resolved (safe) global or a Record."""
    return func(*args)


def _bytearray(source=b"", *arguments):
    """builtins.bytearray of bytes or text the pickle carries, never of a size: `bytearray(1 << 30)`
    is a gigabyte from a few bytes of pickle."""
    if not isinstance(source, (bytes, bytearray, str)):
        raise CheckpointError(f"bytearray of {describe(source)}: only bytes the pickle carries are accepted")
    return bytearray(source, *arguments)


def _torch_size(dimensions=()):
    """torch.Size: a tensor's shape, a tuple of at most 64 dimensions (a shape built from a large
    bytearray is eight times its bytes)."""
    if not isinstance(dimensions, (tuple, list)) or len(dimensions) > 64:
        raise CheckpointError(f"torch.Size of {describe(dimensions)}: expected at most 64 dimensions")
    return tuple(dimensions)


def _codecs_encode(text, encoding="utf-8"):
    """_codecs.encode as protocol-2 pickles use it for bytes (latin-1 only)."""
    if encoding not in ("latin1", "latin-1") or not isinstance(text, str):
        raise CheckpointError(f"unsupported _codecs.encode encoding {encoding!r}")
    return text.encode("latin-1")


ALLOWED_GLOBALS = {
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter,
    ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2,
    ("torch", "Size"): _torch_size,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): _codecs_encode,
    **{(module, name): builtin for module in ("builtins", "__builtin__")
       for name, builtin in {"set": set, "frozenset": frozenset, "bytearray": _bytearray,
                             "slice": slice, "complex": complex}.items()},
    **{("torch", name): StorageType(name, dtype) for name, dtype in STORAGE_DTYPES.items()},
}


# --- the zip and the pickle ----------------------------------------------------------------------

class _RestrictedUnpickler(pickle.Unpickler):
    """Unpickler that resolves only ALLOWED_GLOBALS and loads persistent storages from the zip.

    What the pickle may hold on to — the tensor-rebuilding function, storages — belongs to a separate
    `_TensorSource`, never to the unpickler: a bound method of the unpickler left on its stack by a
    pickle that fails half-way would be a reference cycle through the C unpickler's stack, which the
    garbage collector cannot see, and every such failure would leak the archive (found by fuzzing:
    out of memory after 1.5 million inputs).
    """

    def __init__(self, data, archive, prefix, byteorder, tensor_budget):
        super().__init__(io.BytesIO(data), encoding="utf-8")
        self.tensors = _TensorSource(archive, prefix, byteorder, tensor_budget)
        self.record_classes = {}

    def find_class(self, module, name):
        if module == "torch._utils" and name in ("_rebuild_tensor", "_rebuild_tensor_v2"):
            return self.tensors.rebuild_tensor
        allowed = ALLOWED_GLOBALS.get((module, name))
        if allowed is not None:
            return allowed
        key = (module, name)
        if key not in self.record_classes:
            self.record_classes[key] = type(name, (Record,), {"module": module, "name": name})
        return self.record_classes[key]

    def persistent_load(self, pid):
        return self.tensors.storage(pid)


class _TensorSource:
    """The storages of one archive, and the tensors rebuilt from them within a byte budget."""

    def __init__(self, archive, prefix, byteorder, tensor_budget):
        self.archive, self.prefix, self.byteorder = archive, prefix, byteorder
        self.tensor_budget = tensor_budget  # bytes of tensors that may still be rebuilt
        self.storages = {}

    def rebuild_tensor(self, storage, storage_offset, size, stride, *_ignored):
        """_rebuild_tensor(_v2): copies the view, within a budget so stride-0 views cannot exhaust memory."""
        view = _tensor_view(storage, storage_offset, size, stride)
        self.tensor_budget -= view.nbytes
        if self.tensor_budget < 0:
            raise CheckpointError(f"storage 'data/{storage.key}': tensors add up to more bytes than the archive holds")
        return np.array(view)

    def storage(self, pid):
        """The storage a persistent id `("storage", type, key, location, numel)` names, read once."""
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise CheckpointError(f"unsupported persistent id {describe(pid)} {str(pid)[:80]}")
        _, storage_type, key, _location, numel = pid
        if not isinstance(storage_type, StorageType):
            raise CheckpointError(f"storage 'data/{key}' has unsupported type: {describe(storage_type)}")
        if not isinstance(key, str) or not isinstance(numel, int) or numel < 0:
            raise CheckpointError(f"malformed storage reference {str(pid)[:80]}")
        if key not in self.storages:
            self.storages[key] = Storage(key, self._read_storage(key, storage_type, numel))
        return self.storages[key]

    def _read_storage(self, key, storage_type, numel):
        entry = f"{self.prefix}/data/{key}"
        dtype = storage_type.dtype
        try:
            info = self.archive.getinfo(entry)
        except KeyError:
            raise CheckpointError(f"storage '{entry}' is missing from the archive") from None
        expected = numel * dtype.itemsize
        if info.file_size != expected:
            raise CheckpointError(f"storage '{entry}' holds {info.file_size} bytes, expected {expected} "
                                  f"({numel} x {storage_type.name}): truncated or corrupt")
        raw = _read_entry(self.archive, entry)
        if len(raw) != expected:
            raise CheckpointError(f"storage '{entry}' is truncated ({len(raw)} of {expected} bytes)")
        array = np.frombuffer(raw, dtype=dtype.newbyteorder(">" if self.byteorder == "big" else "<"))
        if storage_type.name == "BFloat16Storage":  # bfloat16 is the top half of a float32
            array = (array.astype(np.uint32) << 16).view(np.float32)
        return array


def _open_archive(path, limits):
    """Open the zip and return (archive, prefix of `<prefix>/data.pkl`, declared uncompressed bytes)."""
    if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the open until a writer came
        raise CheckpointError("it is not a regular file (a FIFO, device or directory)")
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        with open(path, "rb") as f:
            head = f.read(4)
        if head.startswith(b"PK\x03\x04"):
            raise CheckpointError("truncated zip archive (no end-of-central-directory record)") from None
        if head[:1] == b"\x80":
            raise CheckpointError("legacy (non-zip) PyTorch serialization is not supported; re-save with torch>=1.6")
        raise CheckpointError("not a zip archive (a PyTorch .pt checkpoint is a zip file)") from None
    except OSError:
        raise  # the file itself cannot be read: reported as such by the caller
    except Exception as error:  # zipfile's other complaints: bad UTF-8 names, impossible offsets, ...
        raise CheckpointError(f"corrupt zip archive: {type(error).__name__}: {error}") from None
    infos = archive.infolist()
    names = [info.filename for info in infos]
    if len(infos) > limits.max_zip_entries:
        raise limits.exceeded("max_zip_entries", f"zip archive has {len(infos)} entries")
    if len(set(names)) != len(names):
        raise CheckpointError("zip archive has duplicate entry names")
    total = sum(info.file_size for info in infos)
    if total > limits.max_total_bytes:
        raise limits.exceeded("max_total_bytes", f"zip archive declares {total} uncompressed bytes")
    for info in infos:  # a zip bomb: a small compressed entry that expands enormously
        if info.file_size > 1 << 20 and info.file_size > limits.max_compression_ratio * max(info.compress_size, 1):
            raise limits.exceeded("max_compression_ratio", f"zip entry '{info.filename[:80]}' expands "
                                  f"{info.compress_size} bytes to {info.file_size}")
    compressed = sum(info.compress_size for info in infos)  # or many entries of just under 1 MiB each
    if total > 1 << 20 and total > limits.max_compression_ratio * max(compressed, 1):
        raise limits.exceeded("max_compression_ratio", f"zip archive's {len(infos)} entries expand {compressed} bytes to {total}")
    pickles = [n for n in names if n.endswith("/data.pkl") and n.count("/") == 1]
    if len(pickles) != 1:
        raise CheckpointError(f"expected one '<prefix>/data.pkl' in the zip archive, found {len(pickles)}")
    return archive, pickles[0][: -len("/data.pkl")], total


def _check_opcodes(data, limits):
    """Refuse, before unpickling, what would make the C unpickler itself allocate without bound.

    A memo index far past the memo's size makes it grow the memo table to that index (a 10-byte
    LONG_BINPUT can ask for gigabytes), and every opcode may build an object. Pickles written by
    torch number their memo entries 0, 1, 2, ... in order.
    """
    memo_entries = 0
    depths = _NestingDepths(limits)
    try:
        for count, (opcode, argument, position) in enumerate(pickletools.genops(data)):
            if count >= limits.max_pickle_opcodes:
                raise limits.exceeded("max_pickle_opcodes", f"data.pkl has more than {limits.max_pickle_opcodes} opcodes")
            if opcode.name in ("PUT", "BINPUT", "LONG_BINPUT"):
                if not isinstance(argument, int) or not 0 <= argument <= memo_entries:
                    raise CheckpointError(f"data.pkl stores memo entry {argument} at byte {position}, "
                                          f"after only {memo_entries} entries")
                memo_entries += argument == memo_entries
            elif opcode.name == "MEMOIZE":
                memo_entries += 1
            depths.step(opcode, argument, position, memo_entries)
    except CheckpointError:
        raise
    except Exception as error:  # pickletools reports malformed opcodes and arguments in its own words
        raise CheckpointError(f"data.pkl is not a valid pickle: {type(error).__name__}: {error}") from None


class _NestingDepths:
    """How deep the objects on the unpickler's stack nest, followed opcode by opcode, so that a
    pickle nesting tuples 200,000 deep (a few hundred KB) is refused before the C unpickler hashes
    one and overflows the C stack (a segmentation fault, no message)."""

    _MARK = object()
    # Opcodes that add to the container below their arguments rather than build a new object.
    _FILLING = {"APPEND", "APPENDS", "SETITEM", "SETITEMS", "ADDITEMS", "BUILD"}

    def __init__(self, limits):
        self.limits, self.stack, self.memo = limits, [], {}

    def _pop(self):
        return self.stack.pop() if self.stack and self.stack[-1] is not self._MARK else 0

    def _pop_to_mark(self):
        popped = []
        while self.stack and self.stack[-1] is not self._MARK:
            popped.append(self.stack.pop())
        return popped

    def step(self, opcode, argument, position, memo_entries):
        name = opcode.name
        if name in ("PUT", "BINPUT", "LONG_BINPUT", "MEMOIZE"):
            key = argument if name != "MEMOIZE" else memo_entries - 1
            self.memo[key] = self.stack[-1] if self.stack and self.stack[-1] is not self._MARK else 1
            return
        popped, container = [], None
        for index, item in reversed(list(enumerate(opcode.stack_before))):
            if item is pickletools.stackslice:
                popped += self._pop_to_mark()
            elif item is pickletools.markobject:
                if self.stack and self.stack[-1] is self._MARK:
                    self.stack.pop()
            elif index == 0 and name in self._FILLING:
                container = self._pop()
            else:
                popped.append(self._pop())
        if name in ("GET", "BINGET", "LONG_BINGET"):
            depth = self.memo.get(argument, 1)
        elif container is not None:
            depth = max(container, 1 + max(popped, default=0))
        else:
            depth = 1 + max(popped, default=0)
        if depth > self.limits.max_pickle_depth:
            raise self.limits.exceeded("max_pickle_depth", f"data.pkl nests objects more than {self.limits.max_pickle_depth} deep "
                                       f"(at byte {position})")
        for item in opcode.stack_after:
            self.stack.append(self._MARK if item is pickletools.markobject else depth)


def _read_entry(archive, name):
    """The bytes of one zip entry; any failure of zipfile or zlib (bad CRC, truncated or undecodable
    data, unsupported compression or encryption) is a refusal that names the entry."""
    try:
        return archive.read(name)
    except Exception as error:
        raise CheckpointError(f"corrupt zip archive: entry '{name[:80]}': {type(error).__name__}: {error}") from None


def read_checkpoint_pickle(path, limits=DEFAULT_LIMITS):
    """Unpickle a `.pt` file's object tree with the restricted unpickler (nothing is executed)."""
    archive, prefix, archive_bytes = _open_archive(path, limits)
    with archive:
        info = archive.getinfo(f"{prefix}/data.pkl")
        if info.file_size > limits.max_pickle_bytes:
            raise limits.exceeded("max_pickle_bytes", f"data.pkl is {info.file_size} bytes")
        if f"{prefix}/byteorder" in archive.NameToInfo:
            byteorder = _read_entry(archive, f"{prefix}/byteorder").decode("ascii", errors="replace").strip()
        else:
            byteorder = "little"
        if byteorder not in ("little", "big"):
            raise CheckpointError(f"unknown byteorder {byteorder[:20]!r}")
        data = _read_entry(archive, info.filename)
        _check_opcodes(data, limits)
        try:
            return _RestrictedUnpickler(data, archive, prefix, byteorder, archive_bytes + limits.tensor_slack_bytes).load()
        except CheckpointError:
            raise
        except RecursionError:
            raise CheckpointError("data.pkl nests objects too deeply") from None
        except MemoryError:
            raise CheckpointError("data.pkl needs more memory than is available") from None
        except Exception as error:  # any other malformed-pickle failure of the C unpickler
            raise CheckpointError(f"data.pkl is not a valid pickle: {type(error).__name__}: {error}") from None


# --- from the object tree to a detection model -----------------------------------------------------

# The tasks the engine runs: Ultralytics model class -> (task, head class).
SUPPORTED_TASKS = {
    "DetectionModel": ("detect", "Detect"), "SegmentationModel": ("segment", "Segment"), "PoseModel": ("pose", "Pose"),
}
# Ultralytics model classes and heads the engine does not run, and the task each one does.
OTHER_TASKS = {
    "OBBModel": "obb", "ClassificationModel": "classify",
    "RTDETRDetectionModel": "rtdetr", "WorldModel": "world", "YOLOEModel": "yoloe", "YOLOESegModel": "yoloe-segment",
}
# Heads and the task each one does (a model class with another class's head names the head's task).
HEAD_TASKS = {"Detect": "detect", "Segment": "segment", "Pose": "pose", "OBB": "obb", "Classify": "classify",
              "Segment26": "segment", "Pose26": "pose"}


@dataclass
class Checkpoint:
    """What the converter needs from a checkpoint; tensors are float32, names verbatim."""

    task: str  # 'detect', 'segment' or 'pose' (SUPPORTED_TASKS)
    state_dict: dict  # name -> float32 array, in PyTorch state_dict order
    parameter_count: int  # elements of `_parameters` entries (Ultralytics' parameter count)
    yaml: dict
    nc: int
    names: list
    stride: list
    batchnorm_eps: float
    activations: dict  # Conv module path -> activation class name ('SiLU', 'Identity')
    model_key: str  # 'ema' or 'model'
    version: str
    date: str


def _module_state(record, where):
    if not isinstance(record, Record) or not isinstance(record.state, dict):
        raise CheckpointError(f"{where} is {describe(record)}, expected a torch module")
    return record.state


def _dict_entry(state, key, where):
    value = state.get(key, {})
    if not isinstance(value, dict):
        raise CheckpointError(f"{where}.{key} is {describe(value)}, expected a dict")
    return value


class _WalkBudget:
    """Counts the objects a walk visits: a shared object is visited once per reference, so a few
    kilobytes of pickle referring to one list from a list of references (and so on, a few levels
    deep) would otherwise expand to billions of visits."""

    def __init__(self, limits, what):
        self.limits, self.what, self.visited = limits, what, 0

    def visit(self, where, depth):
        self.visited += 1
        if len(where) > 100:
            where = where[:99] + "…"
        if self.visited > self.limits.max_walk_nodes:
            raise self.limits.exceeded("max_walk_nodes", f"{self.what} refers to more than "
                                       f"{self.limits.max_walk_nodes} objects (at {where})")
        if depth > self.limits.max_nesting:
            raise self.limits.exceeded("max_nesting", f"{where} nests deeper than {self.limits.max_nesting} levels")


def _json_value(value, where, budget, depth=0):
    """Convert an unpickled yaml value to plain JSON types, refusing anything else."""
    budget.visit(where, depth)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CheckpointError(f"{where} is {value}, not a finite number")
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(v, f"{where}[{i}]", budget, depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise CheckpointError(f"{where} has non-string keys")
        return {k: _json_value(v, f"{where}.{k}", budget, depth + 1) for k, v in value.items()}
    raise CheckpointError(f"{where} is {describe(value)}, which has no JSON form")


def _float32(name, value):
    if not isinstance(value, np.ndarray):
        raise CheckpointError(f"tensor '{name}' is {describe(value)}, not a supported tensor encoding")
    if value.dtype.kind != "f":
        raise CheckpointError(f"tensor '{name}' has dtype {value.dtype}; the weights file stores float32 only")
    with np.errstate(over="ignore"):
        narrowed = value.astype(np.float32)
    if value.dtype.itemsize > 4 and not np.isfinite(narrowed).all() and np.isfinite(value).all():
        raise CheckpointError(f"tensor '{name}' has {value.dtype} values beyond float32's range")
    return narrowed


def _collect_state_dict(model, limits):
    """Walk module records like torch's Module.state_dict(): own parameters, persistent buffers, children.

    Returns (state dict, parameter element count, set of BatchNorm2d eps values, activations): the
    activations map each module that has a convolution and an `act` child (Ultralytics' Conv) to the
    class name of that activation. The yaml does not pin it down: the same module source has been
    built with and without one across Ultralytics versions, so the checkpoint's own modules decide.
    """
    tensors, parameter_count, eps, activations = {}, 0, set(), {}
    budget = _WalkBudget(limits, "the model's modules")

    def walk(record, prefix, depth):
        nonlocal parameter_count
        where = prefix.rstrip(".") or "model"
        budget.visit(f"modules at {where}", depth)
        state = _module_state(record, where)
        if record.name == "BatchNorm2d":
            value = state.get("eps")
            eps.add(value if isinstance(value, (int, float)) else describe(value))
        non_persistent = state.get("_non_persistent_buffers_set") or set()
        if not isinstance(non_persistent, (set, frozenset, list, tuple)):
            raise CheckpointError(f"{where}._non_persistent_buffers_set is {describe(non_persistent)}, expected a set")
        entries = [(k, v, True) for k, v in _dict_entry(state, "_parameters", where).items()]
        entries += [(k, v, False) for k, v in _dict_entry(state, "_buffers", where).items() if k not in non_persistent]
        for key, value, is_parameter in entries:
            if value is None or key == "num_batches_tracked":  # None entries are skipped by torch too
                continue
            if not isinstance(key, str):
                raise CheckpointError(f"{where} has a tensor named by {describe(key)}, not a string")
            tensors[prefix + key] = _float32(prefix + key, value)
            parameter_count += value.size if is_parameter else 0
        children = _dict_entry(state, "_modules", where)
        if "act" in children and "conv" in children:
            act = children["act"]
            activations[where] = act.name if isinstance(act, Record) else describe(act)
        for key, child in children.items():
            if child is not None:
                if not isinstance(key, str):
                    raise CheckpointError(f"{where} has a child module named by {describe(key)}, not a string")
                walk(child, f"{prefix}{key}.", depth + 1)

    walk(model, "", 0)
    return tensors, parameter_count, eps, activations


def _class_names(names, nc):
    """Ultralytics' names (a dict id -> name, or a list) as a list indexed by class id."""
    if isinstance(names, dict):
        if not all(type(k) is int for k in names) or sorted(names) != list(range(len(names))):
            raise CheckpointError("model.names keys are not the class ids 0...n-1")
        names = [names[i] for i in range(len(names))]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise CheckpointError(f"model.names is {describe(names)}, expected class names")
    if len(names) != nc:
        raise CheckpointError(f"model.names has {len(names)} entries but nc is {nc}")
    return list(names)


def _strides(value):
    if not isinstance(value, np.ndarray) or value.ndim != 1 or value.size == 0:
        raise CheckpointError(f"model.stride is {describe(value)}, expected a 1-D tensor")
    if value.dtype.kind not in "fiu" or not np.all(np.isfinite(value.astype(np.float64))):
        raise CheckpointError(f"model.stride is {value.tolist()[:8]}, expected finite numbers")
    return [int(s) if float(s).is_integer() else float(s) for s in value.astype(np.float64)]


def load_checkpoint(path, limits=DEFAULT_LIMITS):
    """Read a YOLO detection, segmentation or pose checkpoint into a `Checkpoint`; raises `CheckpointError` on refusal."""
    root = read_checkpoint_pickle(path, limits)
    if not isinstance(root, dict):
        raise CheckpointError(f"not an Ultralytics checkpoint: the pickle holds {describe(root)}, expected a dict")
    # Like Ultralytics' load_checkpoint: the EMA weights when present, else 'model'.
    model_key = "ema" if root.get("ema") is not None else "model"
    model = root.get(model_key)
    if model is None:
        raise CheckpointError("checkpoint has neither 'ema' nor 'model'")
    state = _module_state(model, f"checkpoint '{model_key}'")
    try:
        layers = list(_dict_entry(_module_state(_dict_entry(state, "_modules", model_key)["model"],
                                                f"{model_key}.model"), "_modules", f"{model_key}.model").values())
        head = layers[-1]
    except (KeyError, IndexError):
        raise CheckpointError(f"checkpoint '{model_key}' ({model.qualified_name()}) has no layer list") from None
    head_name = head.name if isinstance(head, Record) else describe(head)
    task, expected_head = SUPPORTED_TASKS.get(model.name, (None, None))
    if head_name != expected_head:
        task = OTHER_TASKS.get(model.name) or HEAD_TASKS.get(head_name) or "unknown"
        raise CheckpointError(f"not a supported model: {model.name} with a {head_name} head (task '{task}'); "
                              "only YOLO detection, segmentation and pose (tasks 'detect', 'segment', 'pose' with "
                              "Detect, Segment and Pose heads) are supported")

    tensors, parameter_count, eps_values, activations = _collect_state_dict(model, limits)
    if len(eps_values) > 1:
        raise CheckpointError(f"BatchNorm layers use different eps values {sorted(map(str, eps_values))}")
    batchnorm_eps = eps_values.pop() if eps_values else None
    if batchnorm_eps is not None and not (isinstance(batchnorm_eps, float) and batchnorm_eps > 0):
        raise CheckpointError(f"BatchNorm eps is {batchnorm_eps!r}, expected a positive number")

    yaml = _json_value(state.get("yaml"), "model.yaml", _WalkBudget(limits, "model.yaml"))
    if not isinstance(yaml, dict) or not isinstance(yaml.get("nc"), int):
        raise CheckpointError("model.yaml is missing or has no integer 'nc'")
    nc = yaml["nc"]
    head_nc = _module_state(head, "head").get("nc")
    if head_nc != nc:
        raise CheckpointError(f"{head_name} head has nc={head_nc!r} but model.yaml says nc={nc}")
    if task == "pose":
        kpt_shape = yaml.get("kpt_shape")
        if not (isinstance(kpt_shape, list) and len(kpt_shape) == 2 and all(type(v) is int for v in kpt_shape)
                and kpt_shape[0] >= 1 and kpt_shape[1] in (2, 3)):
            raise CheckpointError(f"pose model.yaml has kpt_shape {kpt_shape!r}, expected [keypoints, 2 or 3]")
    version, date = root.get("version"), root.get("date")
    return Checkpoint(
        task=task, state_dict=tensors, parameter_count=parameter_count, yaml=yaml, nc=nc,
        names=_class_names(state.get("names"), nc), stride=_strides(state.get("stride")),
        batchnorm_eps=batchnorm_eps, activations=activations, model_key=model_key,
        version=version if isinstance(version, str) else None, date=date if isinstance(date, str) else None)
