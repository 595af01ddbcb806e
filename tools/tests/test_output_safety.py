"""The tools never destroy an input or write through a link, and every write is checked.

convert.py and random_weights.py are run as the user runs them; the shared writer
(swyolo_file.check_output_path, write_bytes_atomically) is also tested directly, since golden.py
needs torch. Every test checks that the input's bytes are unchanged afterwards.
"""

import errno
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import swyolo_file
from fake_checkpoint import TensorStore, checkpoint_dict, tiny_detection_model, write_pt
from support import REPO, TOOLS
from swyolo_file import TensorFileError, check_output_path, file_sha256, read_tensor_file, write_tensor_file

TINY_MANIFEST = os.path.join(REPO, "Fuzz", "Seeds", "models", "tiny-conv-detect.manifest.json")
FILE_SIZE_LIMIT = 256  # bytes: smaller than any tensor file the tools write


def limit_file_size():
    """In the child: writes past FILE_SIZE_LIMIT bytes fail with EFBIG instead of killing the process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def run_tool(script, *args, preexec_fn=None):
    """Run tools/<script>; a short timeout, so a tool blocked on a FIFO fails the test instead of hanging."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # under the file-size limit, write only what we test
    return subprocess.run([sys.executable, os.path.join(TOOLS, script), *map(str, args)], capture_output=True,
                          text=True, timeout=60, env=env, preexec_fn=preexec_fn)


class OutputSafetyCase(unittest.TestCase):
    """A temporary folder holding a small checkpoint `x.pt`, and assertions on what a tool left."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.checkpoint = self.path("x.pt")
        store = TensorStore()
        write_pt(self.checkpoint, checkpoint_dict(tiny_detection_model(store)), store.storages)
        self.checkpoint_bytes = self.read(self.checkpoint)

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    @staticmethod
    def read(path):
        with open(path, "rb") as f:
            return f.read()

    def write_swyolo(self, name):
        """An earlier SwiftYOLO file at `name`; returns its path and bytes."""
        path = self.path(name)
        write_tensor_file(path, {"kind": "weights", "note": "earlier output"}, [], inputs={})
        return path, self.read(path)

    def assertNoTemporaries(self):
        self.assertEqual([n for n in os.listdir(self.tmp.name) if n.startswith(".tmp-")], [])

    def assertCheckpointUnchanged(self):
        self.assertEqual(self.read(self.checkpoint), self.checkpoint_bytes)

    def assertOneLineFailure(self, result, prefix, *fragments):
        """Exit status 1, nothing on stdout, one stderr line starting with `prefix` and holding `fragments`."""
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith(prefix), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])
        self.assertNoTemporaries()
        return lines[0]

    def assertConvertRefused(self, output, *fragments):
        result = run_tool("convert.py", self.checkpoint, output)
        line = self.assertOneLineFailure(result, f"convert.py: {self.checkpoint}: ", output, *fragments)
        self.assertCheckpointUnchanged()
        return line


class ConvertOutputTests(OutputSafetyCase):
    def test_output_is_the_checkpoint(self):
        self.assertConvertRefused(self.checkpoint, "same file as the input checkpoint", "choose another output path")

    def test_output_is_a_hard_link_to_the_checkpoint(self):
        output = self.path("out.swyolo")
        os.link(self.checkpoint, output)
        self.assertConvertRefused(output, "same file as the input checkpoint", self.checkpoint)
        self.assertEqual(os.stat(output).st_ino, os.stat(self.checkpoint).st_ino)

    def test_output_is_a_symlink_to_the_checkpoint(self):
        output = self.path("out.swyolo")
        os.symlink(self.checkpoint, output)
        self.assertConvertRefused(output, "same file as the input checkpoint", self.checkpoint)
        self.assertEqual(os.readlink(output), self.checkpoint)

    def test_output_is_a_symlink_to_another_file(self):
        # Even a link to a SwiftYOLO file, which could itself be replaced, and a dangling link.
        target, target_bytes = self.write_swyolo("elsewhere.swyolo")
        for name, link_target in [("to-swyolo.swyolo", target), ("dangling.swyolo", self.path("absent.swyolo"))]:
            with self.subTest(name):
                output = self.path(name)
                os.symlink(link_target, output)
                self.assertConvertRefused(output, "is a symbolic link")
                self.assertEqual(os.readlink(output), link_target)
        self.assertEqual(self.read(target), target_bytes)
        self.assertFalse(os.path.lexists(self.path("absent.swyolo")))

    def test_output_is_not_a_swyolo_file(self):
        for name, content in [("notes.txt", b"my notes\n"), ("empty.swyolo", b"")]:
            with self.subTest(name):
                output = self.path(name)
                with open(output, "wb") as f:
                    f.write(content)
                self.assertConvertRefused(output, f"refusing to overwrite {output}: it is not a SwiftYOLO file")
                self.assertEqual(self.read(output), content)

    def test_existing_swyolo_output_is_replaced(self):
        output, _ = self.write_swyolo("out.swyolo")
        result = run_tool("convert.py", self.checkpoint, output)
        self.assertEqual(result.returncode, 0, result.stderr)
        metadata, tensors = read_tensor_file(output)
        self.assertEqual(metadata["source"]["sha256"], file_sha256(self.checkpoint))
        self.assertTrue(tensors)
        self.assertEqual(stat.S_IMODE(os.stat(output).st_mode), 0o644)
        self.assertNoTemporaries()
        self.assertCheckpointUnchanged()

    def test_output_is_a_directory(self):
        output = self.path("out")
        os.mkdir(output)
        with open(os.path.join(output, "keep.txt"), "w") as f:
            f.write("kept")
        self.assertConvertRefused(output, "is a directory")
        self.assertEqual(os.listdir(output), ["keep.txt"])

    def test_output_is_a_fifo(self):
        output = self.path("out.fifo")
        os.mkfifo(output)
        self.assertConvertRefused(output, "is not a regular file")  # run_tool's timeout catches a blocked open
        self.assertTrue(stat.S_ISFIFO(os.lstat(output).st_mode))

    def test_output_is_checked_before_the_checkpoint_is_read(self):
        # A checkpoint the reader refuses: the output's refusal comes first, so none is slow.
        with open(self.checkpoint, "wb") as f:
            f.write(b"not a zip\n")
        self.checkpoint_bytes = self.read(self.checkpoint)
        output = self.path("notes.txt")
        with open(output, "w") as f:
            f.write("my notes\n")
        line = self.assertConvertRefused(output, "not a SwiftYOLO file")
        self.assertNotIn("zip", line)

    def test_file_size_limit(self):
        # EFBIG half-way through the write: one line, no temporary, and nothing new under the output's name.
        output = self.path("out.swyolo")
        result = run_tool("convert.py", self.checkpoint, output, preexec_fn=limit_file_size)
        self.assertOneLineFailure(result, f"convert.py: {self.checkpoint}: ", f"cannot write {output}: File too large")
        self.assertFalse(os.path.lexists(output))
        self.assertCheckpointUnchanged()


class RandomWeightsOutputTests(OutputSafetyCase):
    def setUp(self):
        super().setUp()
        self.manifest = self.path("tiny.manifest.json")
        shutil.copyfile(TINY_MANIFEST, self.manifest)
        self.manifest_bytes = self.read(self.manifest)

    def assertRandomWeightsFails(self, output, *fragments, preexec_fn=None):
        result = run_tool("random_weights.py", "--manifest", self.manifest, "--out", output, preexec_fn=preexec_fn)
        self.assertOneLineFailure(result, f"random_weights.py: {self.manifest}: ", *fragments)
        self.assertEqual(self.read(self.manifest), self.manifest_bytes)

    def test_output_is_the_manifest(self):
        self.assertRandomWeightsFails(self.manifest, "same file as the input manifest")

    def test_output_is_not_a_swyolo_file(self):
        output = self.path("notes.txt")
        with open(output, "w") as f:
            f.write("my notes\n")
        self.assertRandomWeightsFails(output, "not a SwiftYOLO file")
        self.assertEqual(self.read(output), b"my notes\n")

    def test_file_size_limit(self):
        output = self.path("w.swyolo")
        self.assertRandomWeightsFails(output, f"cannot write {output}: File too large", preexec_fn=limit_file_size)
        self.assertFalse(os.path.lexists(output))


class WriterTests(OutputSafetyCase):
    """swyolo_file's writer itself, for what a subprocess cannot show (golden.py's inputs, fsync, interrupts)."""

    def test_swyolo_input_as_output_is_refused(self):
        # golden.py --weights w.swyolo --out w.swyolo: a SwiftYOLO file, refused only as being the input.
        weights, weights_bytes = self.write_swyolo("w.swyolo")
        with self.assertRaisesRegex(TensorFileError, "same file as the input weights"):
            check_output_path(weights, {"weights": weights})
        with self.assertRaisesRegex(TensorFileError, "same file as the input weights"):
            write_tensor_file(weights, {"kind": "golden"}, [], inputs={"image": self.checkpoint, "weights": weights})
        self.assertEqual(self.read(weights), weights_bytes)
        self.assertCheckpointUnchanged()

    def test_temporary_is_fsynced_before_the_rename(self):
        output = self.path("out.swyolo")
        calls = []
        real_fsync, real_replace = os.fsync, os.replace
        with mock.patch.object(swyolo_file.os, "fsync", side_effect=lambda fd: calls.append("fsync") or real_fsync(fd)), \
             mock.patch.object(swyolo_file.os, "replace", side_effect=lambda a, b: calls.append("replace") or real_replace(a, b)):
            write_tensor_file(output, {}, [], inputs={"checkpoint": self.checkpoint})
        self.assertEqual(calls[:2], ["fsync", "replace"])  # then the folder, where the system allows
        self.assertEqual(read_tensor_file(output), ({}, {}))
        self.assertCheckpointUnchanged()

    def test_disk_full_is_one_error_and_keeps_the_old_file(self):
        output, old_bytes = self.write_swyolo("out.swyolo")
        no_space = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        with mock.patch.object(swyolo_file.os, "fsync", side_effect=no_space):
            with self.assertRaises(TensorFileError) as caught:
                write_tensor_file(output, {"kind": "weights"}, [], inputs={"checkpoint": self.checkpoint})
        self.assertEqual(str(caught.exception), f"cannot write {output}: {os.strerror(errno.ENOSPC)}")
        self.assertEqual(self.read(output), old_bytes)
        self.assertNoTemporaries()
        self.assertCheckpointUnchanged()

    def test_interrupt_removes_the_temporary(self):
        output, old_bytes = self.write_swyolo("out.swyolo")
        with mock.patch.object(swyolo_file.os, "replace", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                write_tensor_file(output, {"kind": "weights"}, [], inputs={"checkpoint": self.checkpoint})
        self.assertEqual(self.read(output), old_bytes)
        self.assertNoTemporaries()
        self.assertCheckpointUnchanged()


if __name__ == "__main__":
    unittest.main()
