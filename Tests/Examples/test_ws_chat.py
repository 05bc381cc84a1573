"""ws-chat as a process: headless Chromium runs its self-test page against
/echo (text and binary messages of 0 B to 1 MiB), Python's `websockets`
clients chat through /chat, a socket that stops reading is closed with
1008, and SIGTERM closes every socket with 1001; all on 127.0.0.1 with a
port the system chose."""

import asyncio
import signal
import unittest

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from support import Example, browser_verdict


class WSChatTests(unittest.TestCase):
    def start(self, *args):
        server = Example("ws-chat", "--port", 0, "--threads", 2, *args)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def test_browser_selftest_through_echo(self):
        """Chromium's own WebSocket, with the permessage-deflate it offers
        accepted: 14 messages (text and binary, 0 B to 1 MiB) compressed
        both ways, echoed and checked, then the close with 1000."""
        _, port = self.start()
        verdict = browser_verdict(f"http://127.0.0.1:{port}/selftest")
        self.assertEqual(
            verdict,
            "selftest ok 14 messages close 1000 permessage-deflate; server_max_window_bits=12; client_max_window_bits=12")

    def test_browser_selftest_without_compression(self):
        """The same with --no-compression: Chromium's offer declined."""
        _, port = self.start("--no-compression")
        verdict = browser_verdict(f"http://127.0.0.1:{port}/selftest")
        self.assertEqual(verdict, "selftest ok 14 messages close 1000 no-extensions")

    def test_chat_every_line_to_every_socket(self):
        _, port = self.start()

        async def chat():
            async with connect(f"ws://127.0.0.1:{port}/chat?name=ada") as ada, \
                    connect(f"ws://127.0.0.1:{port}/chat?name=bob") as bob, \
                    connect(f"ws://127.0.0.1:{port}/chat") as guest:
                await ada.send("hi")
                seen = [await ada.recv(), await bob.recv(), await guest.recv()]
                await bob.send("yo")
                seen += [await ada.recv(), await bob.recv(), await guest.recv()]
                await guest.send("hello")
                seen += [await ada.recv()]
                return seen
        seen = asyncio.run(asyncio.wait_for(chat(), 10))
        self.assertEqual(seen[:6], ["ada: hi"] * 3 + ["bob: yo"] * 3)
        self.assertRegex(seen[6], r"^guest-\d+: hello$")

    def test_a_socket_that_stops_reading_is_closed_with_1008(self):
        """A sleeper that reads nothing while the room carries 12 MiB: its
        kernel buffers fill, its lines wait, and past --backlog 4 it is
        closed with 1008; the talker is served throughout. The sleeper
        declines compression, so that its lines (one letter repeated) fill
        its buffers as they would uncompressed."""
        _, port = self.start("--backlog", 4)

        async def flood():
            async with connect(f"ws://127.0.0.1:{port}/chat?name=sleeper", max_size=2**21, compression=None) as sleeper, \
                    connect(f"ws://127.0.0.1:{port}/chat?name=talker", max_size=2**21) as talker:
                line = "x" * 65536
                for _ in range(200):
                    await talker.send(line)
                    await talker.recv()
                code = None
                try:
                    while True:
                        await asyncio.wait_for(sleeper.recv(), 10)
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                return code
        self.assertEqual(asyncio.run(asyncio.wait_for(flood(), 60)), 1008)

    def test_sigterm_closes_every_socket_with_1001(self):
        server, port = self.start()

        async def wait_for_close():
            async with connect(f"ws://127.0.0.1:{port}/chat?name=ada") as ada:
                await ada.send("before")
                await ada.recv()
                server.send_signal(signal.SIGTERM)
                await ada.wait_closed()
                return ada.close_code
        self.assertEqual(asyncio.run(asyncio.wait_for(wait_for_close(), 10)), 1001)
        code, _ = server.wait(timeout=10)
        self.assertEqual(code, 0)
        server.printed(r"^ws-chat: SIGTERM: closing \d+ open$")
        server.printed(r"^ws-chat: stopped; 1 message sent to the room$")


if __name__ == "__main__":
    unittest.main()
