"""Craft `.pt`-shaped checkpoints for the tests, without torch.

`encode_pickle` writes protocol-2 pickle opcodes for plain values plus the stand-ins below, so a
test can name any global (`ultralytics.nn.tasks.SegmentationModel`, `torch.HalfStorage`, ...)
without that module being importable. `tiny_detection_model` builds a two-layer DetectionModel
record tree that the converter accepts.
"""

import math
import struct
import zipfile
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Global:
    """A global referenced by module and name (GLOBAL opcode)."""
    module: str
    name: str


@dataclass
class Call:
    """`func(*args)` (REDUCE opcode)."""
    func: Global
    args: tuple = ()


@dataclass
class Obj:
    """`cls.__new__(cls)` then BUILD with `state` (NEWOBJ + BUILD), as torch modules pickle."""
    cls: Global
    state: dict = field(default_factory=dict)


@dataclass
class Persistent:
    """A persistent id (BINPERSID opcode)."""
    pid: tuple


@dataclass
class RawOpcodes:
    """Pickle opcodes written as they are (they must push exactly one object)."""
    data: bytes


def nested_lists(depth):
    """Opcodes of a list nested `depth` levels deep, built without recursion."""
    return RawOpcodes(b"]" * depth + b"a" * (depth - 1))


def encode_pickle(obj):
    """Protocol-2 pickle bytes for `obj` (no memo: shared objects are written twice)."""
    out = bytearray(b"\x80\x02")

    def emit(value):
        if value is None:
            out.extend(b"N")
        elif value is True or value is False:
            out.extend(b"\x88" if value else b"\x89")
        elif isinstance(value, int):
            out.extend(b"J" + struct.pack("<i", value))
        elif isinstance(value, float):
            out.extend(b"G" + struct.pack(">d", value))
        elif isinstance(value, str):
            data = value.encode("utf-8")
            out.extend(b"X" + struct.pack("<I", len(data)) + data)
        elif isinstance(value, tuple):
            out.extend(b"(")
            for item in value:
                emit(item)
            out.extend(b"t")
        elif isinstance(value, list):
            out.extend(b"](")
            for item in value:
                emit(item)
            out.extend(b"e")
        elif isinstance(value, dict):
            out.extend(b"}(")
            for key, item in value.items():
                emit(key)
                emit(item)
            out.extend(b"u")
        elif isinstance(value, Global):
            out.extend(f"c{value.module}\n{value.name}\n".encode())
        elif isinstance(value, Call):
            emit(value.func)
            emit(tuple(value.args))
            out.extend(b"R")
        elif isinstance(value, Obj):
            emit(value.cls)
            out.extend(b")\x81")
            emit(value.state)
            out.extend(b"b")
        elif isinstance(value, Persistent):
            emit(value.pid)
            out.extend(b"Q")
        elif isinstance(value, RawOpcodes):
            out.extend(value.data)
        else:
            raise TypeError(f"cannot encode {type(value).__name__}")

    emit(obj)
    out.extend(b".")
    return bytes(out)


def write_pt(path, root, storages=None, prefix="archive"):
    """Write a torch-style zip: `<prefix>/data.pkl` holding `root`, `<prefix>/data/<key>` storages."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{prefix}/data.pkl", encode_pickle(root))
        z.writestr(f"{prefix}/byteorder", "little")
        for key, data in (storages or {}).items():
            z.writestr(f"{prefix}/data/{key}", data)
        z.writestr(f"{prefix}/version", "3\n")


class TensorStore:
    """Collects storages; `tensor()` returns the pickled form of a torch tensor stored fp16."""

    def __init__(self):
        self.storages = {}

    def tensor(self, values, storage_type="HalfStorage", dtype="<f2"):
        array = np.asarray(values, dtype=dtype)
        key = str(len(self.storages))
        self.storages[key] = array.tobytes()
        strides = [int(math.prod(array.shape[i + 1:])) for i in range(array.ndim)]
        storage = Persistent(("storage", Global("torch", storage_type), key, "cpu", array.size))
        return Call(Global("torch._utils", "_rebuild_tensor_v2"),
                    (storage, 0, tuple(array.shape), tuple(strides), False,
                     Call(Global("collections", "OrderedDict"))))

    def parameter(self, values):
        return Call(Global("torch._utils", "_rebuild_parameter"),
                    (self.tensor(values), True, Call(Global("collections", "OrderedDict"))))


def module(module_path, class_name, parameters=None, buffers=None, modules=None, **attributes):
    """The pickled form of a torch.nn.Module subclass instance."""
    return Obj(Global(module_path, class_name), {
        "training": False,
        "_parameters": parameters or {},
        "_buffers": buffers or {},
        "_non_persistent_buffers_set": Call(Global("builtins", "set"), ([],)),
        "_modules": modules or {},
        **attributes,
    })


def tiny_detection_model(store, model_class="DetectionModel", head_class="Detect", eps=(0.001, 0.001), yaml=None):
    """A DetectionModel record tree: layer 0 = Conv(conv, bn), layer 1 = a head with a BatchNorm.

    Its state dict is model.0.conv.weight, model.0.bn.{weight,bias,running_mean,running_var},
    model.1.bn.{...}, model.1.dfl.conv.weight: 14 parameter elements, plus running statistics.
    """
    def batchnorm(channels, eps_value):
        return module("torch.nn.modules.batchnorm", "BatchNorm2d",
                      parameters={"weight": store.parameter(np.full(channels, 1.5)),
                                  "bias": store.parameter(np.full(channels, -0.25))},
                      buffers={"running_mean": store.tensor(np.arange(channels) * 0.5),
                               "running_var": store.tensor(np.full(channels, 2.0)),
                               "num_batches_tracked": store.tensor([7], "LongStorage", "<i8")},
                      eps=eps_value, momentum=0.03)

    conv = module("ultralytics.nn.modules.conv", "Conv", modules={
        "conv": module("torch.nn.modules.conv", "Conv2d",
                       parameters={"weight": store.parameter(np.arange(4).reshape(2, 2, 1, 1) / 8), "bias": None}),
        "bn": batchnorm(2, eps[0]),
        "act": module("torch.nn.modules.activation", "SiLU"),
    })
    dfl = module("ultralytics.nn.modules.block", "DFL", modules={
        "conv": module("torch.nn.modules.conv", "Conv2d",
                       parameters={"weight": store.parameter(np.arange(2).reshape(1, 2, 1, 1))}),
    })
    head = module("ultralytics.nn.modules.head", head_class, nc=2, reg_max=2,
                  modules={"bn": batchnorm(2, eps[1]), "dfl": dfl})
    sequential = module("torch.nn.modules.container", "Sequential", modules={"0": conv, "1": head})
    yaml = yaml or {"nc": 2, "scales": {"t": [0.5, 0.25, 64]},
            "backbone": [[-1, 1, "Conv", [4, 1, 1]]], "head": [[[0], 1, head_class, ["nc"]]], "channels": 2}
    return module("ultralytics.nn.tasks", model_class, modules={"model": sequential}, yaml=yaml,
                  names={0: "cat", 1: "dog"}, stride=store.tensor([8.0], "FloatStorage", "<f4"))


def checkpoint_dict(model, key="model"):
    """An Ultralytics checkpoint dict around `model`."""
    root = {"date": "2000-01-01T00:00:00", "version": "8.0.0", "model": None, "ema": None}
    root[key] = model
    return root
