"""rx-watch as a process: files changed the way editors change them, commands
that start children of their own, paths on standard input, and signals."""

import os
import signal
import tempfile
import time
import unittest

from support import Example


def wait_until(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def atomic_save(path, text):
    """What editors do: write a temporary file beside, rename it over."""
    temporary = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.swp")
    with open(temporary, "w") as file:
        file.write(text)
    os.rename(temporary, path)


def alive(pid):
    """Whether `pid` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


class RxWatchTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.watched = os.path.join(self.directory.name, "watched")
        os.mkdir(self.watched)
        self.file = os.path.join(self.watched, "config.txt")
        with open(self.file, "w") as file:
            file.write("v0\n")
        self.log = os.path.join(self.directory.name, "runs.log")

    def start(self, *args, stdin_text=None, watching="1 path"):
        watch = Example("rx-watch", *args, cwd=self.directory.name, stdin_text=stdin_text)
        self.addCleanup(watch.stop)
        watch.expect_stderr(f"^rx-watch: watching {watching}$")
        return watch

    def log_lines(self):
        try:
            with open(self.log) as log:
                return log.read().splitlines()
        except FileNotFoundError:
            return []

    def wait_for_log(self, count, timeout=5.0):
        wait_until(lambda: len(self.log_lines()) >= count, timeout)
        return self.log_lines()

    def test_help_and_usage_errors(self):
        for args, expected in ((["--help"], 0), (["watched"], 64), (["watched", "--restart", "--", "true"], 64), (["--debounce", "soon", "watched", "--", "true"], 64)):
            watch = Example("rx-watch", *args, cwd=self.directory.name)
            self.addCleanup(watch.stop)
            code, _ = watch.wait(10)
            self.assertEqual(code, expected, f"{args}: {watch.stderr}")
        self.assertIn("--restart", "\n".join(watch.stderr + watch.stdout))

    def test_five_atomic_saves_in_50_ms_run_the_command_once(self):
        watch = self.start("--debounce", "100ms", "watched/config.txt", "--", "sh", "-c", f"cat watched/config.txt >> {self.log}")
        for version in range(1, 6):
            atomic_save(self.file, f"v{version}\n")
            time.sleep(0.01)
        self.assertEqual(self.wait_for_log(1), ["v5"])
        time.sleep(0.5)
        self.assertEqual(self.log_lines(), ["v5"], "one burst, one run")
        # A plain write (not atomic) counts too; a neighbour's change does not.
        with open(os.path.join(self.watched, "other.txt"), "w") as other:
            other.write("x")
        with open(self.file, "a") as file:
            file.write("appended\n")
        self.assertEqual(self.wait_for_log(3), ["v5", "v5", "appended"])
        watch.process.send_signal(signal.SIGINT)
        code, _ = watch.wait(5)
        self.assertEqual(code, 130)

    def test_a_change_during_a_run_queues_one_more_run(self):
        watch = self.start("--debounce", "20ms", "watched", "--", "sh", "-c", f"echo start >> {self.log}; sleep 0.4; echo end >> {self.log}")
        atomic_save(self.file, "1")
        self.wait_for_log(1)
        for version in range(3):  # while it runs, three bursts
            atomic_save(self.file, f"again {version}")
            time.sleep(0.05)
        self.assertEqual(self.wait_for_log(4), ["start", "end", "start", "end"])
        time.sleep(0.3)
        self.assertEqual(len(self.log_lines()), 4, "the changes during a run make one more run, not three")
        watch.process.send_signal(signal.SIGTERM)
        code, _ = watch.wait(5)
        self.assertEqual(code, 143)

    def test_restart_kills_the_commands_whole_group_then_starts_again(self):
        # Each run records the shell's pid and its child sleep's, and waits.
        script = f"sleep 30 & echo $$ $! >> {self.log}; wait"
        watch = self.start("--restart", "--debounce", "20ms", "--grace", "1s", "watched/config.txt", "--", "sh", "-c", script)
        atomic_save(self.file, "1")
        first = [int(pid) for pid in self.wait_for_log(1)[0].split()]
        self.assertTrue(all(alive(pid) for pid in first))
        self.assertEqual(os.getpgid(first[1]), first[0], "the command leads its own process group")
        atomic_save(self.file, "2")
        lines = self.wait_for_log(2)
        self.assertEqual(len(lines), 2, watch.stderr)
        second = [int(pid) for pid in lines[1].split()]
        self.assertTrue(wait_until(lambda: not any(alive(pid) for pid in first), 3), "a survivor of the first run")
        self.assertFalse(group_alive(first[0]))
        # The second run started only after the first was gone, and runs on.
        self.assertTrue(all(alive(pid) for pid in second))
        watch.process.send_signal(signal.SIGINT)
        code, waited = watch.wait(5)
        self.assertEqual(code, 130)
        self.assertLess(waited, 3)
        self.assertFalse(any(alive(pid) for pid in second))
        self.assertFalse(group_alive(second[0]))

    def test_restart_kills_a_group_that_ignores_sigterm_after_the_grace(self):
        script = f"trap '' TERM; sleep 30 & echo $$ $! >> {self.log}; wait"
        watch = self.start("--restart", "--debounce", "20ms", "--grace", "300ms", "watched/config.txt", "--", "sh", "-c", script)
        atomic_save(self.file, "1")
        first = [int(pid) for pid in self.wait_for_log(1)[0].split()]
        started = time.monotonic()
        atomic_save(self.file, "2")
        self.assertEqual(len(self.wait_for_log(2)), 2)
        self.assertGreaterEqual(time.monotonic() - started, 0.3, "the next run waited for the grace")
        self.assertFalse(any(alive(pid) for pid in first))
        watch.process.send_signal(signal.SIGINT)
        code, _ = watch.wait(5)
        self.assertEqual(code, 130)
        second = [int(pid) for pid in self.log_lines()[1].split()]
        self.assertFalse(any(alive(pid) for pid in second))

    def test_paths_from_standard_input(self):
        other = os.path.join(self.directory.name, "other.txt")
        with open(other, "w") as file:
            file.write("o")
        watch = self.start("--debounce", "20ms", "--", "sh", "-c", f"echo ran >> {self.log}",
                           stdin_text="watched\nother.txt\n\n", watching="2 paths")
        with open(other, "a") as file:
            file.write("changed")
        self.assertEqual(self.wait_for_log(1), ["ran"])
        with open(os.path.join(self.watched, "new-entry"), "w") as file:  # in a watched directory
            file.write("x")
        self.assertEqual(self.wait_for_log(2), ["ran", "ran"])
        watch.process.send_signal(signal.SIGINT)
        code, _ = watch.wait(5)
        self.assertEqual(code, 130)

    def test_no_paths_on_standard_input_exits_1(self):
        watch = Example("rx-watch", "--", "true", cwd=self.directory.name, stdin_text="\n")
        self.addCleanup(watch.stop)
        code, _ = watch.wait(10)
        self.assertEqual(code, 1)
        self.assertEqual(watch.stderr, ["rx-watch: no paths to watch on standard input"])

    def test_once_exits_with_the_commands_status(self):
        watch = self.start("--once", "--clear", "--debounce", "20ms", "watched/config.txt", "--", "sh", "-c", "echo output; exit 3")
        atomic_save(self.file, "1")
        code, _ = watch.wait(5)
        self.assertEqual(code, 3)
        # The command's output is ours, after the screen was cleared.
        self.assertEqual(watch.stdout, ["\x1b[H\x1b[2J\x1b[3Joutput"])
        self.assertIn("rx-watch: sh -c 'echo output; exit 3' exited 3", watch.stderr)

    def test_sigint_stops_the_running_command_and_exits(self):
        watch = self.start("--debounce", "20ms", "watched/config.txt", "--", "sh", "-c", f"echo $$ >> {self.log}; sleep 30")
        atomic_save(self.file, "1")
        pid = int(self.wait_for_log(1)[0])
        self.assertTrue(alive(pid))
        watch.process.send_signal(signal.SIGINT)
        code, waited = watch.wait(5)
        self.assertEqual(code, 130)
        self.assertLess(waited, 3)
        self.assertFalse(alive(pid))
        self.assertFalse(group_alive(pid), "the sleep of the command survived")

    def test_a_command_that_cannot_start_is_reported_and_watching_goes_on(self):
        watch = self.start("--once", "--debounce", "20ms", "watched/config.txt", "--", "no-such-command-rx-watch")
        atomic_save(self.file, "1")
        code, _ = watch.wait(5)
        self.assertEqual(code, 127)
        self.assertTrue(any("cannot run no-such-command-rx-watch" in line and "ENOENT" in line for line in watch.stderr), watch.stderr)

    def test_a_path_in_a_missing_directory_exits_1(self):
        watch = Example("rx-watch", "no/such/dir/file", "--", "true", cwd=self.directory.name)
        self.addCleanup(watch.stop)
        code, _ = watch.wait(10)
        self.assertEqual(code, 1)
        self.assertIn("ENOENT", "\n".join(watch.stderr))


if __name__ == "__main__":
    unittest.main()
