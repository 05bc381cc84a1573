"""ws-chat as a process: headless Chromium runs its self-test page against
/echo (text and binary messages of 0 B to 1 MiB), Python's `websockets`
clients chat through /chat, a socket that stops reading is closed with
1008, and SIGTERM closes every socket with 1001; all on 127.0.0.1 with a
port the system chose."""

import asyncio
import json
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from support import Example


def browser_verdict(url, timeout=30):
    """Opens `url` in headless Chromium and returns the text of its
    `#verdict` once it is no longer `running`, read through the DevTools
    protocol (`Runtime.evaluate`): `--dump-dom` dumps at the load event,
    before a page's WebSocket exchange is over."""
    profile = tempfile.mkdtemp(prefix="rxuv-chromium-")
    chrome = subprocess.Popen(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    try:
        port = None
        while port is None:
            line = chrome.stderr.readline()
            if not line and chrome.poll() is not None:
                raise AssertionError(f"chromium exited ({chrome.returncode}) before its DevTools port")
            found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))

        async def poll():
            while True:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
                    pages = [t for t in json.load(answer) if t.get("type") == "page" and t["url"].startswith(url)]
                if pages:
                    break
                if time.monotonic() > deadline:
                    return "no page"
                await asyncio.sleep(0.1)
            async with connect(pages[0]["webSocketDebuggerUrl"], max_size=2**24) as devtools:
                ask = 0
                while time.monotonic() < deadline:
                    ask += 1
                    await devtools.send(json.dumps({"id": ask, "method": "Runtime.evaluate", "params": {
                        "expression": "(document.getElementById('verdict') || {}).textContent"}}))
                    while True:
                        reply = json.loads(await devtools.recv())
                        if reply.get("id") == ask:
                            break
                    value = reply.get("result", {}).get("result", {}).get("value")
                    if value and value != "running":
                        return value
                    await asyncio.sleep(0.1)
                return "timeout"
        return asyncio.run(poll())
    finally:
        chrome.kill()
        chrome.wait()
        chrome.stderr.close()
        shutil.rmtree(profile, ignore_errors=True)


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
