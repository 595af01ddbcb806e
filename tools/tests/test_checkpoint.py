"""The restricted checkpoint reader on small crafted checkpoints (no torch needed)."""

import os
import tempfile
import unittest

import numpy as np

import support  # noqa: F401  (puts tools/ on sys.path)
from checkpoint import CheckpointError, load_checkpoint, read_checkpoint_pickle
from fake_checkpoint import (Call, Global, Obj, Persistent, TensorStore, checkpoint_dict, nested_lists,
                             tiny_detection_model, write_pt)


class CraftedCheckpointTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "tiny.pt")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, root, store=None):
        write_pt(self.path, root, store.storages if store else {})
        return self.path

    def assertRefused(self, *fragments):
        with self.assertRaises(CheckpointError) as caught:
            load_checkpoint(self.path)
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))
        return str(caught.exception)

    def test_state_dict_order_names_and_values(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store)), store)
        checkpoint = load_checkpoint(self.path)
        self.assertEqual(list(checkpoint.state_dict), [
            "model.0.conv.weight",
            "model.0.bn.weight", "model.0.bn.bias", "model.0.bn.running_mean", "model.0.bn.running_var",
            "model.1.bn.weight", "model.1.bn.bias", "model.1.bn.running_mean", "model.1.bn.running_var",
            "model.1.dfl.conv.weight",
        ])  # no num_batches_tracked, no None bias
        self.assertEqual(checkpoint.parameter_count, 4 + 2 + 2 + 2 + 2 + 2)  # parameters only, not running stats
        for value in checkpoint.state_dict.values():
            self.assertEqual(value.dtype, np.float32)  # fp16 upcast
        np.testing.assert_array_equal(checkpoint.state_dict["model.0.conv.weight"].ravel(), [0, 0.125, 0.25, 0.375])
        np.testing.assert_array_equal(checkpoint.state_dict["model.0.bn.running_mean"], [0, 0.5])
        self.assertEqual((checkpoint.nc, checkpoint.names, checkpoint.stride), (2, ["cat", "dog"], [8]))
        self.assertEqual((checkpoint.batchnorm_eps, checkpoint.model_key, checkpoint.version),
                         (0.001, "model", "8.0.0"))

    def test_ema_is_used_when_model_is_none(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store), key="ema"), store)
        self.assertEqual(load_checkpoint(self.path).model_key, "ema")

    def test_strided_view_is_rebuilt(self):
        store = TensorStore()
        base = store.tensor(np.arange(6).reshape(2, 3), "FloatStorage", "<f4")
        storage = base.args[0]
        transposed = Call(base.func, (storage, 1, (2, 2), (1, 3), False, None))  # columns 1..2, transposed
        root = self.write(transposed, store)
        np.testing.assert_array_equal(read_checkpoint_pickle(root), [[1, 4], [2, 5]])

    def test_view_beyond_its_storage_is_refused(self):
        store = TensorStore()
        base = store.tensor(np.arange(6), "FloatStorage", "<f4")
        self.write(Call(base.func, (base.args[0], 4, (3,), (1,), False, None)), store)
        with self.assertRaisesRegex(CheckpointError, "storage 'data/0'.*needs element 6, storage has 6"):
            read_checkpoint_pickle(self.path)

    def test_expanding_view_cannot_exhaust_memory(self):
        store = TensorStore()
        base = store.tensor([1.0], "FloatStorage", "<f4")
        self.write(Call(base.func, (base.args[0], 0, (100_000, 100_000), (0, 0), False, None)), store)
        with self.assertRaisesRegex(CheckpointError, "more bytes than the archive holds"):
            read_checkpoint_pickle(self.path)

    def test_unknown_globals_stay_inert(self):
        self.write({"x": Call(Global("builtins", "eval"), ("1/0",)), "y": Obj(Global("os", "Whatever"), {"a": 1})})
        root = read_checkpoint_pickle(self.path)
        self.assertEqual(repr(root["x"]), "<inert builtins.eval>")
        self.assertEqual(root["x"].args, ("1/0",))
        self.assertEqual(root["y"].state, {"a": 1})

    def test_segmentation_model_is_read_with_its_task(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store, "SegmentationModel", "Segment")), store)
        self.assertEqual(load_checkpoint(self.path).task, "segment")

    def test_pose_model_is_read_with_its_task(self):
        store = TensorStore()
        yaml = {"nc": 2, "kpt_shape": [17, 3], "backbone": [[-1, 1, "Conv", [4, 1, 1]]], "head": [[[0], 1, "Pose", ["nc", "kpt_shape"]]]}
        self.write(checkpoint_dict(tiny_detection_model(store, "PoseModel", "Pose", yaml=yaml)), store)
        self.assertEqual(load_checkpoint(self.path).task, "pose")

    def test_pose_model_without_kpt_shape_is_refused(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store, "PoseModel", "Pose")), store)
        self.assertRefused("kpt_shape None", "expected [keypoints, 2 or 3]")

    def test_other_tasks_are_refused_with_their_task(self):
        for model_class, head_class, task in [("OBBModel", "OBB", "obb"), ("ClassificationModel", "Classify", "classify"),
                                              ("DetectionModel", "Segment", "segment"), ("SegmentationModel", "Detect", "detect"),
                                              ("SegmentationModel", "Segment26", "segment"), ("PoseModel", "Pose26", "pose")]:
            with self.subTest(model_class=model_class, head_class=head_class):
                store = TensorStore()
                self.write(checkpoint_dict(tiny_detection_model(store, model_class, head_class)), store)
                self.assertRefused(f"{model_class} with a {head_class} head", f"task '{task}'")

    def test_deeply_nested_yaml_is_refused(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store, yaml={"nc": 2, "head": nested_lists(500)})), store)
        self.assertRefused("model.yaml.head", "nests deeper than 100 levels")
        store = TensorStore()  # deeper still, the pickle is refused before it is unpickled
        self.write(checkpoint_dict(tiny_detection_model(store, yaml={"nc": 2, "head": nested_lists(50_000)})), store)
        self.assertRefused("data.pkl nests objects more than 1000 deep", "max_pickle_depth")

    def test_different_batchnorm_eps_is_refused(self):
        store = TensorStore()
        self.write(checkpoint_dict(tiny_detection_model(store, eps=(0.001, 1e-5))), store)
        self.assertRefused("different eps values")

    def test_missing_storage_is_refused(self):
        store = TensorStore()
        root = checkpoint_dict(tiny_detection_model(store))
        del store.storages["3"]
        self.write(root, store)
        self.assertRefused("storage 'archive/data/3' is missing")

    def test_unknown_storage_type_is_refused(self):
        self.write(Persistent(("storage", Global("torch", "QInt8Storage"), "0", "cpu", 1)))
        self.assertRefused("storage 'data/0' has unsupported type", "torch.QInt8Storage")

    def test_top_level_that_is_not_a_dict(self):
        self.write([1, 2])
        self.assertRefused("expected a dict")

    def test_malformed_pickle(self):
        import zipfile
        with zipfile.ZipFile(self.path, "w") as z:
            z.writestr("archive/data.pkl", b"\x80\x02(((")
        self.assertRefused("data.pkl is not a valid pickle")


if __name__ == "__main__":
    unittest.main()
