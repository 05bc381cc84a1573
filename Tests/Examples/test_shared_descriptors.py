"""Descriptors shared with other processes are left as they were found: rxcat
as a child whose standard input and output are each kind of descriptor a
supervisor or a shell hands in (a TCP socket, a Unix-domain socket, a pipe, a
file, a pseudo-terminal); after it ends (at end of input, or killed by
SIGTERM while reading) the parent finds every descriptor's flags as they
were before."""

import fcntl
import os
import pty
import signal
import socket
import subprocess
import tempfile
import time
import unittest

from support import BIN_PATH


def tcp_pair():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        ours = socket.create_connection(listener.getsockname())
        theirs, _ = listener.accept()
    return ours, theirs


class SharedDescriptorTests(unittest.TestCase):
    """Each row: the kind of stdin, how the child's run ends."""

    def make_input(self, kind):
        """(the child's stdin descriptor, a function that sends bytes and
        ends input, the parent's descriptor sharing the child's open file)."""
        if kind in ("tcp", "unix"):
            ours, theirs = tcp_pair() if kind == "tcp" else socket.socketpair()
            self.addCleanup(ours.close)
            self.addCleanup(theirs.close)

            def send(data, end=True):
                ours.sendall(data)
                if end:
                    ours.shutdown(socket.SHUT_WR)
            return theirs.fileno(), send, theirs.fileno()
        if kind == "pipe":
            read_end, write_end = os.pipe()
            self.addCleanup(os.close, read_end)
            closed = []

            def send(data, end=True):
                os.write(write_end, data)
                if end:
                    os.close(write_end)
                    closed.append(True)
            self.addCleanup(lambda: closed or os.close(write_end))
            return read_end, send, read_end
        if kind == "file":
            handle = tempfile.TemporaryFile()
            self.addCleanup(handle.close)
            handle.write(b"from a file\n")
            handle.seek(0)
            return handle.fileno(), lambda data, end=True: None, handle.fileno()
        if kind == "pty":
            controller, terminal = pty.openpty()
            self.addCleanup(os.close, controller)
            self.addCleanup(os.close, terminal)

            def send(data, end=True):
                os.write(controller, data)
                if end:
                    os.write(controller, b"\x04")
            return terminal, send, terminal
        raise ValueError(kind)

    def check(self, kind, output_kind, ending):
        stdin, send, shared_in = self.make_input(kind)
        if output_kind == "tcp":
            reader, stdout = tcp_pair()
            self.addCleanup(reader.close)
            self.addCleanup(stdout.close)
            stdout_fd, shared_out = stdout.fileno(), stdout.fileno()
        else:
            reader_fd, stdout_fd = os.pipe()
            self.addCleanup(os.close, reader_fd)
            self.addCleanup(os.close, stdout_fd)
            shared_out = stdout_fd
        before = (fcntl.fcntl(shared_in, fcntl.F_GETFL), fcntl.fcntl(shared_out, fcntl.F_GETFL))
        process = subprocess.Popen([os.path.join(BIN_PATH, "rxcat")], stdin=stdin, stdout=stdout_fd, stderr=subprocess.PIPE)
        if ending == "eof":
            send(b"hello\n")
        else:
            send(b"hello\n", end=False)
            time.sleep(0.5)
            process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
        after = (fcntl.fcntl(shared_in, fcntl.F_GETFL), fcntl.fcntl(shared_out, fcntl.F_GETFL))
        self.assertEqual(after, before, f"stdin {kind}, stdout {output_kind}, ending {ending}: flags {before} became {after}")
        self.assertEqual(process.returncode, 0 if ending == "eof" else -signal.SIGTERM)

    def test_every_kind_at_end_of_input(self):
        for kind in ["tcp", "unix", "pipe", "file", "pty"]:
            for output_kind in ["tcp", "pipe"]:
                with self.subTest(stdin=kind, stdout=output_kind):
                    self.check(kind, output_kind, "eof")

    def test_every_stream_kind_when_sigterm_ends_it(self):
        for kind in ["tcp", "unix", "pipe", "pty"]:
            for output_kind in ["tcp", "pipe"]:
                with self.subTest(stdin=kind, stdout=output_kind):
                    self.check(kind, output_kind, "sigterm")


if __name__ == "__main__":
    unittest.main()
