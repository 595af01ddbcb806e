"""tools/static/link.py finds a product's link in SwiftPM's build description and relinks it elsewhere."""

import os
import sys
import tempfile
import unittest

from support import REPO

sys.path.insert(0, os.path.join(REPO, "tools", "static"))
import link  # noqa: E402

DESCRIPTION = '''client:
  name: basic
commands:
  "C.swift-yolo-x86_64-unknown-linux-gnu-release.module":
    tool: shell
    args: ["/opt/swift/usr/bin/swiftc","-module-name","swift_yolo","-c"]

  "C.swift-yolo-x86_64-unknown-linux-gnu-release.exe":
    tool: shell
    inputs: ["/b/main.swift.o"]
    outputs: ["/b/release/swift-yolo"]
    args: ["/opt/swift/usr/bin/swiftc","-lpng16","-o","/b/release/swift-yolo","-emit-executable","-Xlinker","--gc-sections","-Xlinker","-rpath=$ORIGIN","@/b/Objects.LinkFileList","-g"]

  "C.other-x86_64-unknown-linux-gnu-release.exe":
    tool: shell
    args: ["/opt/swift/usr/bin/swiftc","-o","/b/release/other"]
'''


class StaticLinkTests(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.addCleanup(self.scratch.cleanup)
        with open(os.path.join(self.scratch.name, "release.yaml"), "w", encoding="utf-8") as file:
            file.write(DESCRIPTION)

    def test_the_products_link_is_found_and_redirected(self):
        arguments = link.link_arguments(self.scratch.name, "swift-yolo")
        self.assertEqual(arguments[3], "/b/release/swift-yolo")
        command = link.static_arguments(arguments, "/out/swift-yolo", ["-static-executable", "-Xlinker", "-lz"])
        self.assertEqual(command, ["/opt/swift/usr/bin/swiftc", "-lpng16", "-o", "/out/swift-yolo", "-emit-executable",
                                   "-Xlinker", "--gc-sections", "@/b/Objects.LinkFileList", "-g",
                                   "-static-executable", "-Xlinker", "-lz"])

    def test_a_product_without_a_link_is_an_error_naming_it(self):
        for product in ["swift-yol", "swift"]:  # a product whose name begins another's is not that one
            with self.assertRaises(SystemExit) as raised:
                link.link_arguments(self.scratch.name, product)
            self.assertIn(f"no link command for {product} ", str(raised.exception.code))

    def test_a_missing_build_description_names_the_file(self):
        with self.assertRaises(SystemExit) as raised:
            link.link_arguments(os.path.join(self.scratch.name, "absent"), "swift-yolo")
        self.assertIn("absent/release.yaml", str(raised.exception.code))


if __name__ == "__main__":
    unittest.main()
