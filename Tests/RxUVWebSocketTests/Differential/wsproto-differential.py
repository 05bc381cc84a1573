#!/usr/bin/env python3
"""The corpus of the WebSocket differential: byte streams a peer could send
after the opening handshake, valid and malformed, each with wsproto's verdict
as the receiving side (a server, which reads masked frames, or a client,
which reads unmasked ones). Prints one JSON object per line:

  {"name": ..., "role": "server" | "client", "data": base64,
   "events": [["text", str] | ["binary", base64] | ["ping", base64] |
              ["pong", base64] | ["close", code, reason], ...],
   "end": "closed" | "open" | "fail", "code": close code (for "fail"),
   "error": wsproto's reason (for "fail"),
   "pending": "header" | "payload" | "none" (for "open": where wsproto's
   frame decoder stopped; read from its private state, so "unknown" if a
   later wsproto moves it)}

"events" are whole messages (wsproto's pieces of one message joined, a
message not finished left out) and control frames, in order; "end" is
"closed" after the peer's Close frame, "fail" when wsproto refused the bytes
(with the close code it would send), "open" when the bytes ran out with
neither. The frames are built here from RFC 6455 §5.2, and the random
mutations are seeded, so every run checks the same corpus."""

import base64
import json
import random
import struct
import sys

from wsproto.connection import SERVER, CLIENT, Connection, ConnectionState
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage

MASK = b"\x37\xfa\x21\x3d"


def frame(opcode, payload=b"", fin=True, rsv=0, masked=True, key=MASK, length_form=None, declared=None):
    """One frame's bytes: `length_form` forces a 7-, 16- or 64-bit length,
    `declared` a length other than the payload's."""
    length = len(payload) if declared is None else declared
    form = length_form or (7 if length <= 125 else 16 if length <= 0xFFFF else 64)
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    mask_bit = 0x80 if masked else 0
    if form == 7:
        head += bytes([mask_bit | length])
    elif form == 16:
        head += bytes([mask_bit | 126]) + struct.pack("!H", length)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", length)
    if masked:
        head += key
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + payload


def close_payload(code, reason=b""):
    return struct.pack("!H", code) + reason


# Each base: a list of frames as (opcode, payload, fin) and keyword options.
CLOSE = (0x8, close_payload(1000, b"bye"), True)
BASES = {
    "text": [(0x1, "hello, world".encode(), True), CLOSE],
    "binary": [(0x2, bytes(range(40)), True), CLOSE],
    "empty-messages": [(0x1, b"", True), (0x2, b"", True), CLOSE],
    "fragmented-text": [(0x1, "héll".encode(), False), (0x9, b"ping!", True), (0x0, "o wörld".encode(), False), (0xA, b"", True),
                        (0x0, " ✓".encode(), True), CLOSE],
    "split-character": [(0x1, b"a\xe2", False), (0x0, b"\x82", False), (0x0, b"\xac", True), CLOSE],
    "fragmented-binary": [(0x2, b"\x00\x01", False), (0x0, b"", False), (0x0, b"\xff", True), CLOSE],
    "pings": [(0x9, b"", True), (0xA, b"pong", True), (0x9, bytes(125), True), CLOSE],
    "length-16": [(0x2, bytes(i % 251 for i in range(300)), True), (0x1, ("x" * 126).encode(), True), CLOSE],
    "length-64": [(0x2, bytes(i % 253 for i in range(65536)), True), CLOSE],
    "close-empty": [(0x1, b"a", True), (0x8, b"", True)],
    "close-reason": [(0x8, close_payload(4000, "done é".encode()), True)],
    "no-close": [(0x1, b"open", True), (0x2, b"\x01", True)],
    "after-close": [CLOSE, (0x1, b"late", True), (0x3, b"", True)],
}
CLOSE_CODES = [0, 999, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015, 1016,
               1100, 2000, 2999, 3000, 3999, 4000, 4999, 5000, 65535]


def serialize(frames, masked, **options):
    return b"".join(frame(opcode, payload, fin, masked=masked) for opcode, payload, fin in frames)


def mutations(frames, masked):
    """Structured mutations of one frame list: (name, bytes)."""
    def build(items, index=None, **options):
        out = b""
        for i, (opcode, payload, fin) in enumerate(items):
            if i == index:
                out += frame(opcode, payload, options.pop("fin", fin), masked=options.pop("masked", masked), **options)
            else:
                out += frame(opcode, payload, fin, masked=masked)
        return out

    for index, (opcode, payload, fin) in enumerate(frames):
        yield f"rsv1@{index}", build(frames, index, rsv=0x40)
        yield f"rsv2@{index}", build(frames, index, rsv=0x20)
        yield f"rsv3@{index}", build(frames, index, rsv=0x10)
        yield f"unmasked-or-masked@{index}", build(frames, index, masked=not masked)
        if masked:
            yield f"other-key@{index}", build(frames, index, key=b"\x01\x02\x03\x04")
        for reserved in (0x3, 0x7, 0xB, 0xF):
            yield f"opcode-{reserved:x}@{index}", build([(reserved if i == index else o, p, f) for i, (o, p, f) in enumerate(frames)])
        if len(payload) <= 125:
            yield f"length-16@{index}", build(frames, index, length_form=16)
        if len(payload) <= 0xFFFF:
            yield f"length-64@{index}", build(frames, index, length_form=64)
        yield f"fin-flipped@{index}", build(frames, index, fin=not fin)
        if opcode in (0x8, 0x9, 0xA):
            yield f"control-126@{index}", build([(o, p + bytes(126) if i == index else p, f) for i, (o, p, f) in enumerate(frames)])
        if opcode in (0x0, 0x1) and payload:
            for bad_name, bad in (("ff", b"\xff"), ("surrogate", b"\xed\xa0\x80"), ("overlong", b"\xc0\xaf"),
                                  ("cut", b"\xe2\x82"), ("past-10ffff", b"\xf4\x90\x80\x80")):
                yield f"utf8-{bad_name}@{index}", build([(o, p + bad if i == index else p, f) for i, (o, p, f) in enumerate(frames)])
        if opcode == 0x8:
            yield f"close-1-byte@{index}", build([(o, b"\x03" if i == index else p, f) for i, (o, p, f) in enumerate(frames)])
            yield f"close-bad-reason@{index}", build([(o, close_payload(1000, b"\xc3\x28") if i == index else p, f)
                                                      for i, (o, p, f) in enumerate(frames)])
    yield "continuation-first", frame(0x0, b"x", True, masked=masked) + serialize(frames, masked)
    yield "text-inside-text", frame(0x1, b"x", False, masked=masked) + serialize(frames, masked)
    yield "msb-length", frame(0x2, b"", masked=masked, length_form=64, declared=1 << 63) + serialize(frames, masked)
    yield "huge-length", frame(0x2, b"abc", masked=masked, length_form=64, declared=1 << 40)
    yield "over-1mib", frame(0x2, b"abc", masked=masked, length_form=64, declared=(1 << 20) + 1)
    data = serialize(frames, masked)
    for cut in (1, 2, 3, 5):
        if len(data) > cut:
            yield f"truncated-{cut}", data[:-cut]


def wsproto_verdict(role, data):
    connection = Connection(SERVER if role == "server" else CLIENT)
    connection.receive_data(data)
    events, pieces, kind = [], [], None
    end, code, error = "open", None, None
    for event in connection.events():
        if isinstance(event, (TextMessage, BytesMessage)):
            kind = "text" if isinstance(event, TextMessage) else "binary"
            pieces.append(event.data)
            if event.message_finished:
                if kind == "text":
                    events.append(["text", "".join(pieces)])
                else:
                    events.append(["binary", base64.b64encode(b"".join(pieces)).decode()])
                pieces = []
        elif isinstance(event, Ping):
            events.append(["ping", base64.b64encode(bytes(event.payload)).decode()])
        elif isinstance(event, Pong):
            events.append(["pong", base64.b64encode(bytes(event.payload)).decode()])
        elif isinstance(event, CloseConnection):
            # A peer's Close moves wsproto to REMOTE_CLOSING; a refusal of
            # the bytes leaves it OPEN (and reports the code it would send).
            if connection.state is ConnectionState.REMOTE_CLOSING:
                events.append(["close", int(event.code), event.reason or ""])
                end = "closed"
            else:
                end, code, error = "fail", int(event.code), event.reason
            break
    verdict = {"events": events, "end": end}
    if end == "open":
        verdict["pending"] = pending(connection)
    if end == "fail":
        verdict["code"] = code
        verdict["error"] = error
    return verdict


def pending(connection):
    """Where wsproto's frame decoder stopped when the bytes ran out: inside
    a frame's header, inside its payload, or between frames."""
    try:
        decoder = connection._proto._frame_decoder
        if decoder.header is not None:
            return "payload"
        return "header" if len(decoder.buffer) > 0 else "none"
    except AttributeError:
        return "unknown"


def cases():
    for role in ("server", "client"):
        masked = role == "server"
        for name, frames in BASES.items():
            yield f"{role}/{name}", role, serialize(frames, masked)
            for mutation, data in mutations(frames, masked):
                yield f"{role}/{name}/{mutation}", role, data
        for code in CLOSE_CODES:
            yield f"{role}/close-code-{code}", role, frame(0x8, close_payload(code, b"why"), masked=masked)
        generator = random.Random(6455 if masked else 6456)
        bases = list(BASES.items())
        for index in range(2000):
            name, frames = generator.choice(bases)
            if name == "length-64":
                continue
            data = bytearray(serialize(frames, masked))
            for _ in range(generator.randint(1, 3)):
                position = generator.randrange(len(data))
                choice = generator.random()
                if choice < 0.5:
                    data[position] ^= 1 << generator.randrange(8)
                elif choice < 0.75:
                    del data[position]
                else:
                    data.insert(position, generator.choice(b"\x00\x7e\x7f\x80\x81\x88\xff\xc3\xed"))
            yield f"{role}/{name}/random-{index}", role, bytes(data)


def main():
    out = sys.stdout
    for name, role, data in cases():
        verdict = wsproto_verdict(role, data)
        verdict["name"] = name
        verdict["role"] = role
        verdict["data"] = base64.b64encode(data).decode()
        out.write(json.dumps(verdict) + "\n")


if __name__ == "__main__":
    main()
