"""Round trip and validation of the `.swyolo` container (docs/weight-file.md)."""

import json
import os
import struct
import tempfile
import unittest

import numpy as np

import support  # noqa: F401  (puts tools/ on sys.path)
from swyolo_file import (HEADER, TensorFileError, decode_tensor_file, encode_tensor_file, read_tensor_file,
                         write_tensor_file)

METADATA = {"kind": "golden", "format_version": 1, "note": "ünïcode"}


def sample_tensors():
    rs = np.random.RandomState(0)
    return [("model.0.conv.weight", rs.standard_normal((4, 3, 3, 3))),
            ("scalar", np.float32(2.5)),
            ("empty", np.zeros((0, 5))),
            ("model.1.bias", np.arange(17, dtype=np.float16))]


def header_fields(data):
    return list(HEADER.unpack_from(data))


def with_header(data, **changes):
    """`data` with header fields replaced (names as in the layout table)."""
    names = ["magic", "version", "count", "meta_offset", "meta_length", "table_offset", "table_length",
             "data_offset", "data_length"]
    fields = dict(zip(names, header_fields(data)))
    fields.update(changes)
    return HEADER.pack(*(fields[n] for n in names)) + data[HEADER.size:]


def first_entry_offset(data):
    """File position of the first table entry's `offset` field (entry name 'model.0.conv.weight')."""
    table_offset = header_fields(data)[5]
    name_length = struct.unpack_from("<I", data, table_offset)[0]
    return table_offset + 4 + name_length + 8 + 8 * 4


class RoundTripTests(unittest.TestCase):
    def test_round_trip_preserves_order_shapes_and_values(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.swyolo")
            write_tensor_file(path, METADATA, sample_tensors(), inputs={})
            metadata, tensors = read_tensor_file(path)
        self.assertEqual(metadata, METADATA)
        self.assertEqual(list(tensors), [name for name, _ in sample_tensors()])
        for name, expected in sample_tensors():
            self.assertEqual(tensors[name].dtype, np.float32, name)
            np.testing.assert_array_equal(tensors[name], np.asarray(expected, dtype=np.float32), err_msg=name)

    def test_layout_is_aligned_and_ends_at_data_end(self):
        data = encode_tensor_file(METADATA, sample_tensors())
        magic, version, count, meta_offset, meta_length, table_offset, _, data_offset, data_length = \
            header_fields(data)
        self.assertEqual((magic, version, count, meta_offset), (b"SWYOLOTF", 1, 4, 64))
        self.assertEqual(json.loads(data[64:64 + meta_length]), METADATA)
        self.assertEqual(table_offset, 64 + meta_length)
        self.assertEqual(data_offset % 64, 0)
        self.assertEqual(len(data), data_offset + data_length)
        data_start = np.frombuffer(data, np.uint8).__array_interface__["data"][0] + data_offset
        for name, array in decode_tensor_file(data)[1].items():
            if array.size:
                self.assertEqual((array.__array_interface__["data"][0] - data_start) % 64, 0, name)

    def test_no_tensors(self):
        self.assertEqual(decode_tensor_file(encode_tensor_file({}, [])), ({}, {}))


class ValidationTests(unittest.TestCase):
    def setUp(self):
        self.data = encode_tensor_file(METADATA, sample_tensors())

    def assertRejected(self, data, *fragments):
        with self.assertRaises(TensorFileError) as caught:
            decode_tensor_file(data, source="bad.swyolo")
        message = str(caught.exception)
        self.assertTrue(message.startswith("bad.swyolo: "), message)
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_bad_magic(self):
        self.assertRejected(b"NOTYOLO!" + self.data[8:], "bad magic")

    def test_unsupported_version(self):
        self.assertRejected(with_header(self.data, version=2), "format version 2")

    def test_truncated_file(self):
        self.assertRejected(self.data[:-4], "header says")
        self.assertRejected(self.data[:40], "shorter than the 64-byte header")

    def test_metadata_not_json(self):
        meta_length = header_fields(self.data)[4]
        self.assertRejected(self.data[:64] + b"{" * meta_length + self.data[64 + meta_length:], "not UTF-8 JSON")

    def test_misaligned_tensor_offset(self):
        position = first_entry_offset(self.data)
        bad = self.data[:position] + struct.pack("<Q", 4) + self.data[position + 8:]
        self.assertRejected(bad, "model.0.conv.weight", "not a multiple of 64")

    def test_tensor_outside_data(self):
        position = first_entry_offset(self.data)
        bad = self.data[:position] + struct.pack("<Q", 1 << 20) + self.data[position + 8:]
        self.assertRejected(bad, "model.0.conv.weight", "outside the data section")

    def test_wrong_byte_length(self):
        position = first_entry_offset(self.data) + 8
        bad = self.data[:position] + struct.pack("<Q", 8) + self.data[position + 8:]
        self.assertRejected(bad, "model.0.conv.weight", "byte length 8")

    def test_unknown_dtype(self):
        position = first_entry_offset(self.data) - 8 * 4 - 8
        bad = self.data[:position] + struct.pack("<I", 1) + self.data[position + 4:]
        self.assertRejected(bad, "model.0.conv.weight", "unsupported dtype 1")

    def test_duplicate_names(self):
        data = encode_tensor_file({}, [("a", np.ones(2)), ("b", np.ones(2))])
        self.assertRejected(data.replace(b"\x01\x00\x00\x00b", b"\x01\x00\x00\x00a"), "'a'", "duplicate")

    def test_overlapping_tensors(self):
        data = encode_tensor_file({}, [("a", np.ones(2)), ("b", np.ones(2))])
        table_offset = header_fields(data)[5]
        second_offset = table_offset + (4 + 1 + 8 + 8 + 16) + 4 + 1 + 8 + 8
        bad = data[:second_offset] + struct.pack("<Q", 0) + data[second_offset + 8:]
        self.assertRejected(bad, "overlaps")

    def test_non_zero_padding(self):
        data = bytearray(encode_tensor_file({}, [("a", np.ones(2)), ("b", np.ones(2))]))
        data[header_fields(data)[7] + 8] = 1  # inside the gap after tensor 'a'
        self.assertRejected(bytes(data), "non-zero padding before tensor 'b'")

    def test_writer_refuses_duplicates_and_bad_names(self):
        with self.assertRaises(TensorFileError):
            encode_tensor_file({}, [("a", np.ones(1)), ("a", np.ones(1))])
        with self.assertRaises(TensorFileError):
            encode_tensor_file({}, [("", np.ones(1))])
        with self.assertRaises(TensorFileError):
            encode_tensor_file({}, [("x" * 1025, np.ones(1))])
        with self.assertRaises(ValueError):
            encode_tensor_file({"nan": float("nan")}, [])


if __name__ == "__main__":
    unittest.main()
