"""COCO RLE: hand-worked strings of pycocotools' format, and round trips of random masks (numpy only)."""

import unittest

import numpy as np

import support  # noqa: F401  (puts tools/ on sys.path)
import coco_rle


class CocoRLETests(unittest.TestCase):
    def test_hand_worked_strings(self):
        # 2x2 all ones: counts [0, 4] -> "0", "4".
        self.assertEqual(coco_rle.encode(np.ones((2, 2), bool)), {"size": [2, 2], "counts": "04"})
        # Column-major: [[0, 1], [0, 1]] flattens to 0 0 1 1 -> counts [2, 2].
        self.assertEqual(coco_rle.encode(np.array([[0, 1], [0, 1]], bool))["counts"], "22")
        # A count of 40 needs two groups: 40 = 8 + 1·32 -> (8 | 0x20) + 48 = 'X', 1 + 48 = '1'.
        self.assertEqual(coco_rle.counts_to_string([40]), "X1")
        # From the fourth count on, the difference with the count two before is stored; here
        # counts [3, 1, 5, 0]: the fourth stores 0 - 1 = -1 -> 0x1f + 48 = 'O'.
        self.assertEqual(coco_rle.counts_to_string([3, 1, 5, 0]), "315O")
        self.assertEqual(coco_rle.string_to_counts("315O"), [3, 1, 5, 0])

    def test_round_trips(self):
        rs = np.random.RandomState(0)
        for shape in [(1, 1), (3, 7), (40, 33), (200, 150)]:
            for density in (0.0, 0.02, 0.5, 0.98, 1.0):
                mask = rs.uniform(size=shape) < density
                rle = coco_rle.encode(mask)
                self.assertEqual(rle["size"], list(shape))
                np.testing.assert_array_equal(coco_rle.decode(rle), mask)
                self.assertEqual(sum(coco_rle.string_to_counts(rle["counts"])), mask.size)

    def test_bad_counts_are_refused(self):
        with self.assertRaisesRegex(ValueError, "not to 2x2"):
            coco_rle.decode({"size": [2, 2], "counts": "05"})


if __name__ == "__main__":
    unittest.main()
