"""rxsponge as a process: atomic and in-place writes, the size limit, and a
writer killed while it writes, which must leave the old file whole."""

import os
import signal
import stat
import subprocess
import tempfile
import threading
import time
import unittest

from support import BIN_PATH


def rxsponge(*args, stdin=subprocess.PIPE):
    return subprocess.Popen([os.path.join(BIN_PATH, "rxsponge"), *args], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class RxSpongeTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "target")

    def tearDown(self):
        self.directory.cleanup()

    def write_old(self, mode=0o640):
        with open(self.path, "wb") as file:
            file.write(b"old contents\n")
        os.chmod(self.path, mode)

    def contents(self):
        with open(self.path, "rb") as file:
            return file.read()

    def test_replaces_atomically_and_keeps_the_mode(self):
        self.write_old(mode=0o600)
        process = rxsponge(self.path)
        out, err = process.communicate(b"new contents\n" * 1000, timeout=20)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(self.contents(), b"new contents\n" * 1000)
        self.assertEqual(stat.S_IMODE(os.stat(self.path).st_mode), 0o600)
        self.assertEqual(os.listdir(self.directory.name), ["target"])

    def test_reads_all_before_writing_the_file_it_reads(self):
        self.write_old()
        with open(self.path, "rb") as source:
            process = rxsponge(self.path, stdin=source)
            _, err = process.communicate(timeout=20)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(self.contents(), b"old contents\n")

    def test_in_place_and_empty_input(self):
        self.write_old()
        process = rxsponge("--in-place", self.path)
        _, err = process.communicate(b"", timeout=20)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(self.contents(), b"")

    def test_input_over_max_size_leaves_the_file_alone(self):
        self.write_old()
        process = rxsponge("--max-size", "1000", self.path)
        _, err = process.communicate(b"x" * 1001, timeout=20)
        self.assertEqual(process.returncode, 1)
        self.assertIn(b"more than --max-size (1000 bytes)", err)
        self.assertEqual(self.contents(), b"old contents\n")

    def test_missing_directory_is_an_error_naming_the_path(self):
        missing = os.path.join(self.directory.name, "no", "file")
        process = rxsponge(missing)
        _, err = process.communicate(b"data", timeout=20)
        self.assertEqual(process.returncode, 1)
        self.assertIn(missing.encode(), err)

    def test_killed_while_writing_leaves_the_old_file_whole(self):
        """SIGKILL at several points of the write phase (from the moment its
        temporary file appears): the file is the old one every time, never a
        part of the new; one run left alone writes the new one whole."""
        size = 96 * 1024 * 1024
        payload = bytes(range(256)) * (size // 256)
        for delay in (0.0, 0.002, 0.01, 0.03, None):
            self.write_old()
            process = rxsponge(self.path)
            feeder = threading.Thread(target=self.feed, args=(process, payload))
            feeder.start()
            killed = False
            deadline = time.monotonic() + 60
            while delay is not None and time.monotonic() < deadline and process.poll() is None:
                if any(name.startswith(".target.") for name in os.listdir(self.directory.name)):
                    time.sleep(delay)
                    process.send_signal(signal.SIGKILL)
                    killed = True
                    break
                time.sleep(0.0005)
            process.wait(timeout=60)
            feeder.join(timeout=60)
            process.stdout.close()
            process.stderr.close()
            contents = self.contents()
            if delay is None:
                self.assertEqual(process.returncode, 0)
                self.assertEqual(len(contents), size)
                self.assertEqual(contents, payload)
            else:
                self.assertTrue(killed or process.returncode == 0, "the write phase was never seen")
                self.assertIn(contents, (b"old contents\n", payload), f"a partial file after SIGKILL at +{delay} s: {len(contents)} bytes")
                # What a crash leaves beside the file is only the temporary file.
                for name in os.listdir(self.directory.name):
                    self.assertTrue(name == "target" or name.startswith(".target."), name)
                    if name != "target":
                        os.unlink(os.path.join(self.directory.name, name))

    @staticmethod
    def feed(process, payload):
        try:
            process.stdin.write(payload)
            process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass


if __name__ == "__main__":
    unittest.main()
