"""Benchmarks/peers-spread.py: SwiftYOLO against the fastest peer at each quantile of a peers.py report."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from support import REPO

SCRIPT = os.path.join(REPO, "Benchmarks", "peers-spread.py")


def report(results):
    return {"model_name": "yolo-test", "results": results}


def spread(*reports):
    """Runs the script on the given report dictionaries (each written to a file); the CompletedProcess."""
    with tempfile.TemporaryDirectory() as directory:
        paths = []
        for index, content in enumerate(reports):
            path = os.path.join(directory, f"report-{index}.json")
            with open(path, "w") as file:
                file.write(content if isinstance(content, str) else json.dumps(content))
            paths.append(path)
        return subprocess.run([sys.executable, SCRIPT, *paths], capture_output=True, text=True, timeout=60)


class PeersSpreadTest(unittest.TestCase):
    def test_each_quantile_against_the_fastest_peer_there(self):
        # SwiftYOLO 10..19 ms; peer A fast at the low end (5..95 ms), peer B steady at 16 ms.
        ours = [10.0 + i for i in range(10)]
        steady = [16.0] * 10
        spread_out = [5.0 + 10 * i for i in range(10)]
        result = spread(report([
            {"engine": "swiftyolo", "threads": 1, "samples_ms": ours},
            {"engine": "peer-a", "threads": 1, "samples_ms": spread_out},
            {"engine": "peer-b", "threads": 1, "samples_ms": steady},
        ]))
        self.assertEqual(result.returncode, 0, result.stderr)
        row = result.stdout.strip().splitlines()[-1]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        self.assertEqual(cells[:2], ["yolo-test", "1"])
        # min: 10 against peer A's 5; median (14.5) against peer B's 16 (peer A's is 50).
        self.assertEqual(cells[2], "10.0 / 5.0 peer-a: **2.00×**")
        self.assertEqual(cells[5], "14.5 / 16.0 peer-b: **0.91×**")
        self.assertEqual(len(cells), 2 + 6)

    def test_one_row_per_thread_count_and_none_without_a_peer(self):
        result = spread(report([
            {"engine": "swiftyolo", "threads": 1, "samples_ms": [10.0, 12.0]},
            {"engine": "peer", "threads": 1, "samples_ms": [20.0, 24.0]},
            {"engine": "swiftyolo", "threads": 2, "samples_ms": [6.0]},
        ]))
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = [line for line in result.stdout.splitlines() if line.startswith("| yolo-test")]
        self.assertEqual(len(rows), 1)
        self.assertIn("**0.50×**", rows[0])

    def test_a_file_that_is_not_a_report_is_named(self):
        result = spread("not json")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("report-0.json", result.stderr)
        self.assertIn("not a peers.py report", result.stderr)


if __name__ == "__main__":
    unittest.main()
