"""Benchmarks/peers.py names its report after the day, and never replaces an earlier one of that name."""

import importlib.util
import os
import tempfile
import unittest
from pathlib import Path

from support import REPO


def load_peers():
    spec = importlib.util.spec_from_file_location("peers", os.path.join(REPO, "Benchmarks", "peers.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PeersReportNamesTest(unittest.TestCase):
    def setUp(self):
        self.peers = load_peers()
        self.directory = tempfile.TemporaryDirectory()
        self.out = Path(self.directory.name)

    def tearDown(self):
        self.directory.cleanup()

    def stem(self, name="yolo11n"):
        return self.peers.report_stem(self.out, "2026-11-29", name).name

    def test_the_first_report_of_a_day_has_no_letter(self):
        self.assertEqual(self.stem(), "peers-2026-11-29-yolo11n")

    def test_a_second_report_takes_the_next_letter(self):
        # A run on 2026-11-29 wrote over that day's earlier report of the same model.
        (self.out / "peers-2026-11-29-yolo11n.md").write_text("earlier")
        self.assertEqual(self.stem(), "peers-2026-11-29b-yolo11n")
        # Either file of a pair holds its name; other models keep their own sequence.
        (self.out / "peers-2026-11-29b-yolo11n.json").write_text("{}")
        self.assertEqual(self.stem(), "peers-2026-11-29c-yolo11n")
        self.assertEqual(self.stem("yolo26n"), "peers-2026-11-29-yolo26n")
        self.assertEqual((self.out / "peers-2026-11-29-yolo11n.md").read_text(), "earlier")

    def test_after_z_the_letters_go_on_as_in_the_results(self):
        # Benchmarks/results has 2026-11-27y, z, za and zb.
        for letter in [""] + list("bcdefghijklmnopqrstuvwxyz") + ["za"]:
            (self.out / f"peers-2026-11-29{letter}-yolo11n.md").write_text("")
        self.assertEqual(self.stem(), "peers-2026-11-29zb-yolo11n")


if __name__ == "__main__":
    unittest.main()
