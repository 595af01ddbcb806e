"""Hostile checkpoints: the reader's limits hold, each refusal names its limit, and every input the
fuzzer ever found (Fuzz/Corpus/checkpoint) is read or refused with a CheckpointError."""

import gc
import os
import struct
import tempfile
import time
import unittest
import zipfile

import numpy as np

from support import REPO, run_tool
from checkpoint import CheckpointError, Limits, load_checkpoint
from fake_checkpoint import (Call, Global, RawOpcodes, TensorStore, checkpoint_dict, encode_pickle,
                             tiny_detection_model, write_pt)

FUZZ_CORPUS = os.path.join(REPO, "Fuzz", "Corpus", "checkpoint")


def shared_lists(levels, width):
    """Pickle opcodes of `levels` nested lists, each holding `width` references to the one below (memoized):
    a few hundred bytes that a naive walk visits width ** levels times."""
    ops = b"](" + b"N" * width + b"e" + b"q\x00"
    for level in range(1, levels):
        ops += b"0](" + (b"h" + bytes([level - 1])) * width + b"e" + b"q" + bytes([level])  # POP the level below
    return RawOpcodes(ops)


class CheckpointLimitTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "hostile.pt")

    def tearDown(self):
        self.tmp.cleanup()

    def write_model(self, **model_arguments):
        store = TensorStore()
        write_pt(self.path, checkpoint_dict(tiny_detection_model(store, **model_arguments)), store.storages)
        return self.path

    def assertRefused(self, *fragments, limits=Limits(), seconds=5):
        start = time.monotonic()
        with self.assertRaises(CheckpointError) as caught:
            load_checkpoint(self.path, limits)
        self.assertLess(time.monotonic() - start, seconds, "refused, but only after a long time")
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))
        return str(caught.exception)

    def test_memo_index_bomb_is_refused_before_unpickling(self):
        # LONG_BINPUT 1,479,048,563: CPython's unpickler would grow its memo table to that size (~12 GB).
        # Found by the checkpoint fuzz target (Fuzz/Corpus/checkpoint/regression-memo-index-bomb).
        with zipfile.ZipFile(self.path, "w") as z:
            z.writestr("archive/data.pkl", b"\x80\x02N" + b"r" + struct.pack("<I", 1_479_048_563) + b".")
        self.assertRefused("memo entry 1479048563", "after only 0 entries", seconds=1)

    def test_a_pickle_failing_half_way_leaks_nothing(self):
        # The tensor-rebuilding global left on the unpickler's stack by a pickle that then fails: when
        # it was a bound method of the unpickler, the cycle through the C unpickler's stack was invisible
        # to the garbage collector, and every such file leaked its archive (the checkpoint fuzz target ran
        # out of memory after 1.5 million inputs; Fuzz/Corpus/checkpoint/regression-unpickler-cycle).
        with zipfile.ZipFile(self.path, "w") as z:
            z.writestr("archive/data.pkl", b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(J\x01\x00\x00\x00J\x03"
                                           b"\x00\x00\x00t\x89NtR.")
        def live_archives():
            gc.collect()
            return sum(1 for o in gc.get_objects() if isinstance(o, zipfile.ZipFile))
        self.assertRefused("could not find MARK")
        before = live_archives()
        for _ in range(20):
            self.assertRefused("could not find MARK")
        self.assertEqual(live_archives(), before, "each failed load left its zip archive behind")

    def test_opcode_count_is_limited(self):
        self.write_model()
        self.assertRefused("more than 100 opcodes", "limit max_pickle_opcodes=100", "--limit max_pickle_opcodes=N",
                           limits=Limits(max_pickle_opcodes=100))

    def test_zip_bomb_is_refused_from_the_directory(self):
        store = TensorStore()
        root = checkpoint_dict(tiny_detection_model(store))
        with zipfile.ZipFile(self.path, "w", zipfile.ZIP_DEFLATED) as z:  # 8 MB of zeros in ~8 KB
            z.writestr("archive/data.pkl", encode_pickle(root))
            for key, data in store.storages.items():
                z.writestr(f"archive/data/{key}", data)
            z.writestr("archive/data/padding", bytes(8 << 20))
        self.assertRefused("zip entry 'archive/data/padding' expands", "to 8388608", "max_compression_ratio=100")

    def test_many_entries_just_under_a_mebibyte_are_a_zip_bomb_too(self):
        # Each entry was checked alone, and only above 1 MiB: 1,500 of 1 MiB − 1 expanded 1.7 MB to 1.57 GB.
        with zipfile.ZipFile(self.path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("archive/data.pkl", encode_pickle({}))
            for index in range(20):
                z.writestr(f"archive/data/{index}", bytes((1 << 20) - 1))
        self.assertRefused("zip archive's 21 entries expand", "max_compression_ratio=100")

    def test_nesting_that_would_overflow_the_c_stack_is_refused_before_unpickling(self):
        # A dict keyed by a tuple nested 200,000 deep (TUPLE1 200,000 times): hashing it recursed in C
        # until the process died with SIGSEGV and no message.
        for container in (b"}", b"\x8f"):  # a dict's key, a frozenset's element
            with self.subTest(container=container):
                with zipfile.ZipFile(self.path, "w") as z:
                    body = b")" + b"\x85" * 200_000
                    pickle = (b"\x80\x04}" + body + b"Ns." if container == b"}"
                              else b"\x80\x04(" + body + b"\x91.")
                    z.writestr("archive/data.pkl", pickle)
                self.assertRefused("data.pkl nests objects more than 1000 deep", "max_pickle_depth=1000", seconds=10)

    def test_sizes_are_not_built_from_a_few_bytes(self):
        # bytearray(1 << 30) is a gigabyte from a 30-byte pickle; torch.Size of a large bytearray eight times its bytes.
        cases = [
            (b"\x80\x02c__builtin__\nbytearray\nJ\x00\x00\x00@\x85R.", "only bytes the pickle carries are accepted"),
            (b"\x80\x02ctorch\nSize\nc__builtin__\nbytearray\nC\x80" + bytes(128) + b"\x85R\x85R.", "expected at most 64 dimensions"),
        ]
        for pickle, message in cases:
            with self.subTest(message=message):
                with zipfile.ZipFile(self.path, "w") as z:
                    z.writestr("archive/data.pkl", pickle)
                self.assertRefused(message)

    def test_a_fifo_is_refused_without_blocking(self):
        os.mkfifo(self.path)  # zipfile's open waited for a writer for ever
        self.assertRefused("not a regular file", seconds=2)

    def test_a_float64_weight_past_float32s_range_is_refused(self):
        from checkpoint import _float32
        with self.assertRaises(CheckpointError) as caught:
            _float32("model.0.conv.weight", np.array([1.0, 1e300]))  # it became inf with a numpy warning
        self.assertIn("tensor 'model.0.conv.weight' has float64 values beyond float32's range", str(caught.exception))
        self.assertEqual(_float32("w", np.array([0.5, -2.0])).tolist(), [0.5, -2.0])

    def test_declared_size_is_limited(self):
        self.write_model()
        self.assertRefused("uncompressed bytes", "limit max_total_bytes=1000", limits=Limits(max_total_bytes=1000))

    def test_pickle_size_is_limited(self):
        self.write_model()
        self.assertRefused("data.pkl is", "limit max_pickle_bytes=100", limits=Limits(max_pickle_bytes=100))

    def test_shared_references_cannot_explode_the_yaml_walk(self):
        # 9 levels of 10 references: 10^9 visits if the walk followed every reference.
        self.write_model(yaml={"nc": 2, "head": shared_lists(levels=9, width=10)})
        self.assertRefused("model.yaml refers to more than 1000000 objects", "limit max_walk_nodes=1000000")

    def test_module_walk_is_limited(self):
        self.write_model()
        self.assertRefused("the model's modules refers to more than 3 objects", "limit max_walk_nodes=3",
                           limits=Limits(max_walk_nodes=3))

    def test_nesting_limit_is_configurable(self):
        self.write_model(yaml={"nc": 2, "head": [[[[[1]]]]]})  # the modules nest 4 deep, the yaml 6
        self.assertRefused("model.yaml.head[0][0][0]", "nests deeper than 4 levels", "limit max_nesting=4",
                           limits=Limits(max_nesting=4))

    def test_names_with_keys_that_are_not_class_ids(self):
        store = TensorStore()
        model = tiny_detection_model(store)
        model.state["names"] = {0: "cat", "dog": 1}  # sorted() of mixed keys raised TypeError before
        write_pt(self.path, checkpoint_dict(model), store.storages)
        self.assertRefused("model.names keys are not the class ids")

    def test_non_finite_stride(self):
        store = TensorStore()
        model = tiny_detection_model(store)
        model.state["stride"] = store.tensor([np.inf], "FloatStorage", "<f4")
        write_pt(self.path, checkpoint_dict(model), store.storages)
        self.assertRefused("model.stride is [inf], expected finite numbers")

    def test_undecodable_zip_entry_name(self):
        # A central-directory name flagged UTF-8 that is not: zipfile raised UnicodeDecodeError (found by fuzzing).
        self.write_model()
        with open(self.path, "rb") as f:
            data = bytearray(f.read())
        central = data.rindex(b"PK\x01\x02" + data[data.rindex(b"PK\x01\x02") + 4:data.rindex(b"PK\x01\x02") + 6])
        flags_at, name_at = central + 8, central + 46
        data[flags_at:flags_at + 2] = struct.pack("<H", struct.unpack_from("<H", data, flags_at)[0] | 0x800)
        data[name_at] = 0x80
        with open(self.path, "wb") as f:
            f.write(data)
        self.assertRefused("corrupt zip archive: UnicodeDecodeError")

    def test_limits_from_the_command_line(self):
        self.write_model()
        out = os.path.join(self.tmp.name, "out.swyolo")
        refused = run_tool("convert.py", "--limit", "max_pickle_opcodes=50", self.path, out)
        self.assertEqual(refused.returncode, 1, refused.stderr)
        self.assertIn("limit max_pickle_opcodes=50", refused.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual(run_tool("convert.py", "--limit", "max_pickle_opcodes=100000", self.path, out).returncode, 0)
        bad = run_tool("convert.py", "--limit", "no_such_limit=1", self.path, out)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("max_pickle_opcodes", bad.stderr)

    def test_fuzz_corpus_is_read_or_refused(self):
        """Every input of the checkpoint fuzz target's corpus, earlier findings included (regression-*)."""
        names = sorted(os.listdir(FUZZ_CORPUS))
        self.assertTrue(any(name.startswith("regression-") for name in names))
        for name in names:
            with open(os.path.join(FUZZ_CORPUS, name), "rb") as f:
                data = f.read()
            if not data:
                continue
            payload = data[1:]
            if data[0] % 2:  # the pickle alone, beside the tiny model's storages (tools/fuzz/fuzz_checkpoint.py)
                store = TensorStore()
                tiny_detection_model(store)
                with zipfile.ZipFile(self.path, "w") as z:
                    z.writestr("archive/data.pkl", payload)
                    z.writestr("archive/byteorder", "little")
                    for key, storage in store.storages.items():
                        z.writestr(f"archive/data/{key}", storage)
            else:
                with open(self.path, "wb") as f:
                    f.write(payload)
            with self.subTest(input=name):
                try:
                    load_checkpoint(self.path)
                except CheckpointError:
                    pass


if __name__ == "__main__":
    unittest.main()
