"""Tests of tools/ (numpy only). Run from the repository root: python3 -m unittest discover -s tools/tests"""

import os
import sys

# The tests import their helpers (support, fake_checkpoint) as top-level modules, whether discovery
# treats this folder as a package (-t tools) or as the top level; support.py puts tools/ on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
