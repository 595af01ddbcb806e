"""Counts the public symbols of SwiftYOLO's modules, from the symbol graphs that
`swift package dump-symbol-graph` writes:

    swift package dump-symbol-graph --skip-synthesized-members
    python3 tools/public_symbols.py .build/x86_64-unknown-linux-gnu/symbolgraph

Prints one line per module that has any, then the total: the surface that `import SwiftYOLO`
gives a user (the engine modules are `package`, so they count zero).
"""
import glob
import json
import os
import sys


def count(directory: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        module = os.path.basename(path).split(".symbols.json")[0].split("@")[0]
        if module.endswith(("Tests", "PackageDiscoveredTests")) or module == "TestSupport":
            continue
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        public = sum(1 for symbol in graph["symbols"] if symbol.get("accessLevel") in ("public", "open"))
        counts[module] = counts.get(module, 0) + public
    return counts


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: public_symbols.py SYMBOLGRAPH_DIR", file=sys.stderr)
        return 64
    counts = count(sys.argv[1])
    for module, n in sorted(counts.items()):
        if n:
            print(f"{module:24} {n}")
    print(f"{'total':24} {sum(counts.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
