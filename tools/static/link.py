#!/usr/bin/env python3
"""Links a product of a SwiftPM build again, statically, from the objects that build compiled.

    tools/static/link.py SCRATCH PRODUCT OUTPUT [EXTRA_ARGUMENT ...]

SwiftPM writes every command of a build into SCRATCH/release.yaml, the link of PRODUCT among them.
This runs that link once more with its own output path, without the run-time search path for
shared libraries (`-rpath=$ORIGIN`), and with EXTRA_ARGUMENT appended (`make static` adds
`-static-executable` and its linker inputs). Linking is all it does: `-static-executable` only
changes how swiftc links, so the objects of `make test`'s build serve the static binary as they
are, and CI compiles the package once less. Exit status 1, with the reason, when the build has no
such link (build the product first).
"""
import json
import os
import re
import subprocess
import sys


def link_arguments(scratch: str, product: str) -> list[str]:
    """The argument list of PRODUCT's link command in SCRATCH/release.yaml."""
    path = os.path.join(scratch, "release.yaml")
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError as error:
        sys.exit(f"link.py: cannot read {path}: {error.strerror} (build the release product first)")
    # The command's name: "C.<product>-<target triple, four parts>-release.exe":
    name = re.compile(rf'"C\.{re.escape(product)}(-[^-"]+){{4}}-release\.exe":')
    for index, line in enumerate(lines):
        if name.fullmatch(line.strip()):
            for body in lines[index + 1:]:
                if not body.startswith("    "):
                    break
                if body.startswith("    args: "):
                    return json.loads(body[len("    args: "):])
    sys.exit(f"link.py: {path} has no link command for {product} (build it with `swift build -c release --product {product}`)")


def static_arguments(arguments: list[str], output: str, extra: list[str]) -> list[str]:
    """ARGUMENTS with OUTPUT as the `-o` value, without `-Xlinker -rpath=...`, and EXTRA appended."""
    result: list[str] = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "-o":
            result += ["-o", output]
            index += 2
        elif argument == "-Xlinker" and index + 1 < len(arguments) and arguments[index + 1].startswith("-rpath="):
            index += 2
        else:
            result.append(argument)
            index += 1
    if "-o" not in result:
        sys.exit("link.py: the link command has no -o")
    return result + extra


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    scratch, product, output, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    command = static_arguments(link_arguments(scratch, product), output, extra)
    completed = subprocess.run(command)
    if completed.returncode != 0:
        sys.exit(f"link.py: the link failed (exit {completed.returncode}): {' '.join(command)}")


if __name__ == "__main__":
    main()
