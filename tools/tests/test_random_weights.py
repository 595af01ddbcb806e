"""tools/random_weights.py reproduces the weights its manifest pins by SHA-256."""

import json
import os
import tempfile
import unittest

import numpy as np

from support import FIXTURES, run_tool
from random_weights import random_state_dict
from swyolo_file import file_sha256, read_tensor_file

MANIFEST = os.path.join(FIXTURES, "models", "yolo11m-random.manifest.json")


class RandomWeightsTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "m.swyolo")
        with open(MANIFEST, encoding="utf-8") as f:
            self.manifest = json.load(f)

    def tearDown(self):
        self.tmp.cleanup()

    def test_reproduces_the_manifest_sha256(self):
        (seed, expected), = self.manifest["expected_sha256"].items()
        result = run_tool("random_weights.py", "--manifest", MANIFEST, "--seed", seed, "--out", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(file_sha256(self.out), expected)
        metadata, tensors = read_tensor_file(self.out)
        self.assertEqual((metadata["kind"], metadata["scale"], metadata["nc"]), ("weights", "m", 80))
        self.assertEqual([t["name"] for t in self.manifest["tensors"]], list(tensors))
        parameters = sum(v.size for k, v in tensors.items() if not k.endswith(("running_mean", "running_var")))
        self.assertEqual(parameters, self.manifest["parameter_count"])

    def test_mismatching_sha256_fails_and_writes_nothing(self):
        seed = next(iter(self.manifest["expected_sha256"]))
        self.manifest["expected_sha256"][seed] = "0" * 64
        manifest = os.path.join(self.tmp.name, "bad.manifest.json")
        with open(manifest, "w", encoding="utf-8") as f:
            json.dump(self.manifest, f)
        result = run_tool("random_weights.py", "--manifest", manifest, "--seed", seed, "--out", self.out)
        self.assertEqual(result.returncode, 1)
        self.assertIn("but the manifest expects 0000", result.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_distributions(self):
        tensors = [{"name": "c", "shape": [64, 32, 3, 3], "init": "conv_weight"},
                   {"name": "v", "shape": [1000], "init": "bn_running_var"},
                   {"name": "d", "shape": [1, 16, 1, 1], "init": "dfl"}]
        values = random_state_dict(tensors, seed=3)
        self.assertAlmostEqual(float(values["c"].std()), 1.4 / np.sqrt(32 * 9), delta=0.01)
        self.assertTrue(0.5 <= values["v"].min() and values["v"].max() < 2.0)
        self.assertEqual(values["d"].ravel().tolist(), list(range(16)))
        np.testing.assert_array_equal(values["c"], random_state_dict(tensors, seed=3)["c"])


if __name__ == "__main__":
    unittest.main()
