"""A full disk, for real: a 1 MiB tmpfs filled to the last byte, in a user
and mount namespace of the test's own (`unshare -rm`, full_disk_cases.py),
so no privilege on the host is needed. rxsponge's atomic write, its
in-place write and rxcat's standard output to a file report ENOSPC and exit
1; the atomic write leaves the old file whole and no temporary file behind;
http-server still serves a file from the full disk (reading needs no
space); once space is freed, the same write succeeds.

Where the kernel refuses unprivileged namespaces (Ubuntu 24.04's AppArmor
default), the test is skipped and the same failures are forced at the
libuv choke point instead (Tests/RxUVTests/Errors/UVFaultInjectionTests:
uv_fs_mkstemp and uv_fs_write failing with ENOSPC)."""

import json
import os
import subprocess
import tempfile
import unittest

from support import BIN_PATH, HERE


def namespaces_allowed():
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


class FullDiskTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not namespaces_allowed():
            raise unittest.SkipTest("the kernel refuses `unshare -rm` here; UVFaultInjectionTests forces ENOSPC instead")
        with tempfile.TemporaryDirectory() as disk:
            run = subprocess.run(
                ["unshare", "-rm", "python3", os.path.join(HERE, "full_disk_cases.py"), BIN_PATH, disk],
                capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            raise AssertionError(f"full_disk_cases.py failed ({run.returncode}):\n{run.stderr}")
        cls.report = json.loads(run.stdout)

    def test_the_disk_is_full(self):
        self.assertGreater(self.report["filled"], 900_000)
        self.assertEqual(self.report["free_after_fill"], 0)

    def test_atomic_write_reports_enospc_and_leaves_the_old_file_whole(self):
        for case in ("atomic", "fresh"):
            self.assertEqual(self.report[case]["status"], 1, case)
            self.assertIn("uv_fs_write", self.report[case]["stderr"], case)
            self.assertIn("ENOSPC (no space left on device)", self.report[case]["stderr"], case)
        self.assertTrue(self.report["atomic_left"], "the failed atomic write changed the file")
        self.assertFalse(self.report["fresh_exists"], "a failed atomic write of a new file left the file")
        self.assertEqual(self.report["listing_after_atomic"], ["filler", "page", "target"], "a temporary file was left behind")

    def test_in_place_write_reports_enospc(self):
        """Not atomic by its contract: the file holds what fitted, a prefix of the input."""
        self.assertEqual(self.report["in_place"]["status"], 1)
        self.assertIn("ENOSPC", self.report["in_place"]["stderr"])
        self.assertTrue(self.report["in_place_prefix"])

    def test_standard_output_to_a_full_disk_reports_enospc(self):
        self.assertEqual(self.report["stdout"]["status"], 1)
        self.assertIn("rxcat: uv_fs_write fd 1: ENOSPC (no space left on device)", self.report["stdout"]["stderr"])
        self.assertEqual(self.report["stdout_bytes"], 0)

    def test_files_are_still_read_and_served(self):
        self.assertEqual(self.report["static"]["status"], 200)
        self.assertTrue(self.report["static_whole"])

    def test_writing_succeeds_once_space_is_freed(self):
        self.assertEqual(self.report["after_freeing"]["status"], 0, self.report["after_freeing"]["stderr"])
        self.assertTrue(self.report["after_freeing_whole"])
        self.assertEqual(self.report["listing_at_end"], ["target"])


if __name__ == "__main__":
    unittest.main()
