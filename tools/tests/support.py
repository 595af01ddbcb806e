"""Paths and helpers shared by the tools tests (numpy only; run: python3 -m unittest discover -s tools/tests)."""

import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TOOLS)
SHARED = os.path.join(os.path.dirname(REPO), "shared")  # CI and developers keep shared/ beside the repo
REFERENCE_CHECKPOINT = os.path.join(SHARED, "weights", "yolo11n.pt")
FIXTURES = os.path.join(REPO, "Tests", "Fixtures")

if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)


def run_tool(script, *args):
    """Run tools/<script> with this interpreter; returns the CompletedProcess (text output)."""
    return subprocess.run([sys.executable, os.path.join(TOOLS, script), *map(str, args)],
                          capture_output=True, text=True, timeout=300)
