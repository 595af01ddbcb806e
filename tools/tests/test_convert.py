"""tools/convert.py end to end: the reference checkpoint, the random fixture, and every refusal."""

import os
import pickle
import tempfile
import unittest
import zipfile

import numpy as np

from support import FIXTURES, REFERENCE_CHECKPOINT, run_tool
from fake_checkpoint import TensorStore, checkpoint_dict, tiny_detection_model, write_pt
from swyolo_file import file_sha256, read_tensor_file

REFERENCE_SHA256 = "be56a5a7c6aeaaa7105e03b0a2571c54bbec09ed9a35cce9cd20c8afe9087baf"


class MaliciousReduce:
    """Pickles as `os.system(command)`: the classic code-execution payload."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


class ConvertTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "out.swyolo")

    def tearDown(self):
        self.tmp.cleanup()

    def tmp_path(self, name):
        return os.path.join(self.tmp.name, name)

    def assertRefused(self, checkpoint, *fragments):
        """convert.py exits 1 with one stderr line `convert.py: <file>: <reason>` and writes nothing."""
        result = run_tool("convert.py", checkpoint, self.out)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith(f"convert.py: {checkpoint}: "), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])
        self.assertFalse(os.path.exists(self.out))
        self.assertEqual([n for n in os.listdir(self.tmp.name) if n.startswith(".tmp-")], [])
        return lines[0]

    # --- success ---

    def test_reference_checkpoint(self):
        result = run_tool("convert.py", REFERENCE_CHECKPOINT, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("418 tensors, 2,624,080 parameters", result.stdout)
        metadata, tensors = read_tensor_file(self.out)
        self.assertEqual(len(tensors), 418)
        self.assertFalse(any(name.endswith("num_batches_tracked") for name in tensors))
        self.assertEqual(list(tensors)[:2], ["model.0.conv.weight", "model.0.bn.weight"])
        self.assertEqual(tensors["model.0.conv.weight"].shape, (16, 3, 3, 3))
        self.assertEqual(tensors["model.23.dfl.conv.weight"].ravel().tolist(), list(range(16)))
        self.assertEqual((metadata["kind"], metadata["format_version"], metadata["task"]), ("weights", 1, "detect"))
        self.assertEqual((metadata["scale"], metadata["nc"], len(metadata["names"])), ("n", 80, 80))
        self.assertEqual((metadata["names"][0], metadata["stride"], metadata["batchnorm_eps"]),
                         ("person", [8, 16, 32], 0.001))
        self.assertEqual(metadata["source"]["sha256"], REFERENCE_SHA256)
        self.assertEqual(metadata["source"]["file"], "yolo11n.pt")
        self.assertEqual(metadata["yaml"]["head"][-1][2], "Detect")
        self.assertEqual(metadata["converter"]["name"], "tools/convert.py")
        # One activation per Conv (81 in yolo11n), as the checkpoint's own modules have them.
        self.assertEqual(len(metadata["activations"]), 81)
        self.assertEqual(metadata["activations"]["model.9.cv1"], "SiLU")
        self.assertEqual(sorted(k for k, v in metadata["activations"].items() if v != "SiLU"),
                         ["model.10.m.0.attn.pe", "model.10.m.0.attn.proj", "model.10.m.0.attn.qkv", "model.10.m.0.ffn.1"])
        with zipfile.ZipFile(REFERENCE_CHECKPOINT) as z:  # storage 0 is model.0.conv.weight, fp16
            raw = np.frombuffer(z.read("yolo11n/data/0"), "<f2").astype(np.float32)
        np.testing.assert_array_equal(tensors["model.0.conv.weight"].ravel(), raw)

    def test_ema_is_taken_when_model_is_none(self):
        # As Ultralytics' trainer saves: the EMA weights under 'ema', 'model' None.
        store = TensorStore()
        path = self.tmp_path("ema.pt")
        write_pt(path, checkpoint_dict(tiny_detection_model(store), key="ema"), store.storages)
        result = run_tool("convert.py", path, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("from 'ema'", result.stdout)
        metadata, tensors = read_tensor_file(self.out)
        self.assertEqual(metadata["names"], ["cat", "dog"])

    def test_crafted_checkpoint(self):
        store = TensorStore()
        path = self.tmp_path("tiny.pt")
        write_pt(path, checkpoint_dict(tiny_detection_model(store)), store.storages)
        result = run_tool("convert.py", path, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        metadata, tensors = read_tensor_file(self.out)
        self.assertEqual((metadata["scale"], metadata["source"]["sha256"]), ("t", file_sha256(path)))

    def test_segmentation_and_pose_checkpoints(self):
        shared_weights = os.path.dirname(REFERENCE_CHECKPOINT)
        # Parameter counts are Ultralytics' model summary of the unfused models (../shared/weights/README.md).
        for name, task, nc, tensor_count, parameters, head_tensor, head_shape in [
            ("yolo11n-seg.pt", "segment", 80, 471, "2,876,848", "model.23.proto.upsample.weight", (64, 64, 2, 2)),
            ("yolo11n-pose.pt", "pose", 1, 454, "2,874,462", "model.23.cv4.0.2.weight", (51, 51, 1, 1)),
        ]:
            with self.subTest(name=name):
                result = run_tool("convert.py", os.path.join(shared_weights, name), self.out)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn(f"{tensor_count} tensors, {parameters} parameters", result.stdout)
                metadata, tensors = read_tensor_file(self.out)
                self.assertEqual((metadata["task"], metadata["nc"], len(tensors)), (task, nc, tensor_count))
                self.assertEqual(tensors[head_tensor].shape, head_shape)
                self.assertEqual(metadata["yaml"]["head"][-1][2], {"segment": "Segment", "pose": "Pose"}[task])
                if task == "pose":
                    self.assertEqual(metadata["yaml"]["kpt_shape"], [17, 3])

    def test_yolo26_checkpoint(self):
        # YOLO26n: an end-to-end head (one2one_cv2/cv3 beside cv2/cv3), reg_max 1 (no DFL), SPPF with a
        # shortcut and an unactivated cv1; 2,572,280 parameters in Ultralytics' summary.
        path = os.path.join(os.path.dirname(REFERENCE_CHECKPOINT), "yolo26n.pt")
        result = run_tool("convert.py", path, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("594 tensors, 2,572,280 parameters, scale n, nc 80", result.stdout)
        metadata, tensors = read_tensor_file(self.out)
        self.assertEqual((metadata["yaml"]["end2end"], metadata["yaml"]["reg_max"]), (True, 1))
        self.assertEqual(tensors["model.23.one2one_cv2.0.2.weight"].shape, (4, 16, 1, 1))
        self.assertNotIn("model.23.dfl.conv.weight", tensors)
        self.assertEqual(metadata["activations"]["model.9.cv1"], "Identity")

    # --- refusals ---

    def test_not_a_zip(self):
        path = self.tmp_path("notes.pt")
        with open(path, "w") as f:
            f.write("just some text\n")
        self.assertRefused(path, "not a zip archive")

    def test_truncated_zip(self):
        path = self.tmp_path("half.pt")
        with open(REFERENCE_CHECKPOINT, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[: len(data) // 2])
        self.assertRefused(path, "truncated zip archive")

    def test_truncated_storage(self):
        path = self.tmp_path("short-storage.pt")
        with zipfile.ZipFile(REFERENCE_CHECKPOINT) as src, zipfile.ZipFile(path, "w") as dst:
            for info in src.infolist():
                data = src.read(info)
                dst.writestr(info.filename, data[: len(data) // 2] if info.filename == "yolo11n/data/7" else data)
        self.assertRefused(path, "storage 'yolo11n/data/7'", "truncated")

    def test_malicious_pickle_never_runs(self):
        marker = self.tmp_path("pwned")
        payload = MaliciousReduce(f"touch {marker}")
        global_name = f"{os.system.__module__}.system"  # posix.system on Linux
        for name, root in [("top.pt", payload), ("nested.pt", {"model": payload, "ema": None})]:
            path = self.tmp_path(name)
            with zipfile.ZipFile(path, "w") as z:
                z.writestr("archive/data.pkl", pickle.dumps(root, protocol=2))
            self.assertRefused(path, f"call to the disallowed global {global_name}")
            self.assertFalse(os.path.exists(marker), "the pickle ran code")

    def test_obb_checkpoint(self):
        store = TensorStore()
        path = self.tmp_path("obb.pt")
        write_pt(path, checkpoint_dict(tiny_detection_model(store, "OBBModel", "OBB")), store.storages)
        self.assertRefused(path, "not a supported model", "task 'obb'")

    def test_missing_file(self):
        self.assertRefused(self.tmp_path("absent.pt"), "No such file")


if __name__ == "__main__":
    unittest.main()
