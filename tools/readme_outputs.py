"""Runs every command of the README's examples and writes their output under them, so that the
README shows what this tree prints: in each fenced block, a line `$ COMMAND` is run with bash from
the repository root (`swift-yolo` is `.build/release/swift-yolo`, `make release` first), and the
lines after it, up to the next `$ ` line or the block's end, are replaced by what it printed
(standard output and standard error, in order).

    python3 tools/readme_outputs.py [README.md]

Commands run in order, so a block may prepare what the next one reads. Some examples fail on
purpose (a refused conversion): the exit status is not checked, the output is what counts.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command: str, bin_dir: str) -> str:
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return result.stdout.rstrip("\n")


def refresh(lines: list[str], bin_dir: str) -> list[str]:
    out: list[str] = []
    in_block = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = not in_block
            out.append(line)
            i += 1
            continue
        if in_block and line.startswith("$ "):
            out.append(line)
            printed = run(line[2:], bin_dir)
            out.extend(printed.split("\n") if printed else [])
            i += 1
            while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
                i += 1
            continue
        out.append(line)
        i += 1
    return out


def main() -> int:
    path = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else "README.md")
    binary = os.path.join(ROOT, ".build", "release", "swift-yolo")
    if not os.access(binary, os.X_OK):
        print(f"readme_outputs: {binary} is missing: run make release first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as bin_dir:
        os.symlink(binary, os.path.join(bin_dir, "swift-yolo"))
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        refreshed = refresh(lines, bin_dir)
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(refreshed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
