"""rxcat as a process: standard input from a file, a pipe, a socket and a
pseudo-terminal; standard output to a slow pipe and to a file."""

import fcntl
import os
import pty
import select
import signal
import socket
import subprocess
import tempfile
import termios
import time
import unittest

from support import BIN_PATH

LINES = b"first\r\nsecond\nthird line with \xc3\xa9\r\nlast without newline"
NUMBERED = (
    b"     1\tfirst\n"
    b"     2\tsecond\n"
    b"     3\tthird line with \xc3\xa9\n"
    b"     4\tlast without newline\n"
)


def rxcat(*args, stdin, stdout=subprocess.PIPE):
    return subprocess.Popen([os.path.join(BIN_PATH, "rxcat"), *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)


class RxCatTests(unittest.TestCase):
    def run_with(self, stdin, *args):
        process = rxcat(*args, stdin=stdin)
        out, err = process.communicate(timeout=20)
        return process.returncode, out, err

    def test_lines_from_a_file(self):
        with tempfile.TemporaryFile() as file:
            file.write(LINES)
            file.seek(0)
            code, out, err = self.run_with(file, "--number")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, NUMBERED)

    def test_lines_from_a_pipe_with_a_crlf_split_across_writes(self):
        process = rxcat("--number", stdin=subprocess.PIPE)
        # "first\r" then "\n...": the CRLF arrives in two reads.
        cut = LINES.index(b"\r") + 1
        process.stdin.write(LINES[:cut])
        process.stdin.flush()
        time.sleep(0.1)
        process.stdin.write(LINES[cut:])
        process.stdin.close()
        with process.stdout, process.stderr:
            out = process.stdout.read()
            err = process.stderr.read()
        process.wait(timeout=20)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(out, NUMBERED)

    def test_lines_from_a_socket(self):
        ours, theirs = socket.socketpair()
        process = rxcat("--number", stdin=theirs)
        theirs.close()
        ours.sendall(LINES)
        ours.shutdown(socket.SHUT_WR)
        out, err = process.communicate(timeout=20)
        ours.close()
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(out, NUMBERED)

    def test_lines_from_a_pseudo_terminal(self):
        controller, terminal = pty.openpty()
        # Echo off, so the output holds only rxcat's lines.
        attributes = termios.tcgetattr(terminal)
        attributes[3] &= ~termios.ECHO
        termios.tcsetattr(terminal, termios.TCSANOW, attributes)
        process = rxcat("--number", stdin=terminal)
        os.close(terminal)
        # A terminal in canonical mode delivers a line at a time; ^D at the
        # start of a line is the end of input.
        os.write(controller, b"first\nsecond\n")
        time.sleep(0.2)
        os.write(controller, b"third\n\x04")
        out, err = process.communicate(timeout=20)
        os.close(controller)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(out, b"     1\tfirst\n     2\tsecond\n     3\tthird\n")

    def raw_session(self):
        """rxcat --raw on a fresh pseudo-terminal, once its mode is raw."""
        controller, terminal = pty.openpty()
        process = rxcat("--raw", stdin=terminal)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and termios.tcgetattr(terminal)[3] & termios.ICANON:
            time.sleep(0.02)
        self.assertFalse(termios.tcgetattr(terminal)[3] & termios.ICANON, "rxcat did not enter raw mode")
        return controller, terminal, process

    def test_raw_mode_reads_keys_as_typed_and_is_restored_at_ctrl_d(self):
        controller, terminal, process = self.raw_session()
        # No newline: in raw mode the keys arrive at once.
        os.write(controller, b"ab")
        ready, _, _ = select.select([process.stdout], [], [], 5)
        self.assertTrue(ready, "nothing came through before Ctrl-D")
        first = os.read(process.stdout.fileno(), 100)
        os.write(controller, b"c\x04")
        out, err = process.communicate(timeout=20)
        canonical = termios.tcgetattr(terminal)[3] & termios.ICANON
        os.close(terminal)
        os.close(controller)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(first + out, b"abc")
        self.assertTrue(canonical, "the terminal was left in raw mode")

    def test_raw_mode_is_restored_when_sigterm_ends_the_program(self):
        controller, terminal, process = self.raw_session()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
        canonical = termios.tcgetattr(terminal)[3] & termios.ICANON
        os.close(terminal)
        os.close(controller)
        self.assertEqual(process.returncode, -signal.SIGTERM)
        self.assertTrue(canonical, "the terminal was left in raw mode")

    def test_the_shared_pipe_stays_blocking(self):
        read_end, write_end = os.pipe()
        process = rxcat(stdin=read_end)
        os.write(write_end, b"hello\n")
        time.sleep(0.3)
        # Our copy of the read end shares the file description the child
        # got: RxUV reopened the pipe instead of making that one non-blocking.
        flags = fcntl.fcntl(read_end, fcntl.F_GETFL)
        os.close(write_end)
        out, err = process.communicate(timeout=20)
        os.close(read_end)
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(out, b"hello\n")
        self.assertEqual(flags & os.O_NONBLOCK, 0)

    def test_4_mib_to_a_slow_pipe_then_exit_loses_nothing(self):
        payload = os.urandom(4 << 20)
        with tempfile.TemporaryFile() as file:
            file.write(payload)
            file.seek(0)
            process = rxcat(stdin=file)
            # Read nothing for a while: rxcat's writes back up in the pipe.
            time.sleep(0.5)
            received = bytearray()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                ready, _, _ = select.select([process.stdout], [], [], 1.0)
                if not ready:
                    continue
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                received += chunk
            process.wait(timeout=20)
            process.stdout.close()
            with process.stderr:
                err = process.stderr.read()
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(len(received), len(payload))
        self.assertTrue(received == payload, "the bytes differ")

    def test_to_a_file(self):
        payload = os.urandom(1 << 20)
        with tempfile.TemporaryFile() as source, tempfile.TemporaryFile() as target:
            source.write(payload)
            source.seek(0)
            process = rxcat(stdin=source, stdout=target)
            _, err = process.communicate(timeout=20)
            target.seek(0)
            written = target.read()
        self.assertEqual(process.returncode, 0, err)
        self.assertEqual(written, payload)

    def test_an_overlong_line_is_an_error(self):
        with open(os.devnull, "rb") as empty:
            code, out, err = self.run_with(empty, "--number")
        self.assertEqual((code, out), (0, b""), err)
        process = rxcat("--number", "--max-line-length", "8", stdin=subprocess.PIPE)
        out, err = process.communicate(b"short\na line longer than eight bytes\n", timeout=20)
        self.assertEqual(process.returncode, 1)
        self.assertEqual(out, b"     1\tshort\n")
        self.assertIn(b"rxcat: a line is longer than 8 bytes", err)

    def test_help(self):
        code, out, _ = self.run_with(subprocess.DEVNULL, "--help")
        self.assertEqual(code, 0)
        self.assertIn(b"Copy standard input to standard output", out)


if __name__ == "__main__":
    unittest.main()
