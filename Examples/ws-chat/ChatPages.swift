import HTTPTypes
import RxUVHTTP

/// The pages `ws-chat` serves: the chat, and the browser's self-test.
enum ChatPages {
    static let chat = html(
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>ws-chat</title></head>
        <body>
        <pre id="log"></pre>
        <form id="form"><input id="line" autofocus autocomplete="off"><button>Send</button></form>
        <script>
        const name = new URLSearchParams(location.search).get("name") || "";
        const socket = new WebSocket(`ws://${location.host}/chat` + (name ? `?name=${encodeURIComponent(name)}` : ""));
        const log = document.getElementById("log");
        socket.onmessage = (event) => { log.textContent += event.data + "\\n"; };
        socket.onclose = (event) => { log.textContent += `(closed: ${event.code})\\n`; };
        document.getElementById("form").onsubmit = (event) => {
          event.preventDefault();
          const line = document.getElementById("line");
          if (line.value) socket.send(line.value);
          line.value = "";
        };
        </script>
        </body></html>
        """)

    /// Sends text and binary messages of 0 B to 1 MiB through `/echo`,
    /// checks each answer, closes with 1000 and writes the verdict into
    /// `#verdict` (what a headless browser's `--dump-dom` shows).
    static let selfTest = html(
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>ws-chat self-test</title></head>
        <body>
        <pre id="verdict">running</pre>
        <script>
        const verdict = document.getElementById("verdict");
        const sizes = [0, 1, 125, 126, 65535, 65536, 1048576];
        function text(size) { return "é".repeat(Math.floor(size / 2)) + "x".repeat(size % 2); }
        function bytes(size) { const a = new Uint8Array(size); for (let i = 0; i < size; i++) a[i] = (i * 7) & 255; return a; }
        function same(a, b) { if (a.length !== b.length) return false; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }
        const socket = new WebSocket(`ws://${location.host}/echo`);
        socket.binaryType = "arraybuffer";
        const expected = [];
        let checked = 0, failures = [];
        socket.onopen = () => {
          for (const size of sizes) {
            expected.push(text(size)); socket.send(text(size));
            expected.push(bytes(size)); socket.send(bytes(size));
          }
        };
        socket.onmessage = (event) => {
          const want = expected[checked++];
          const ok = typeof want === "string" ? event.data === want : same(new Uint8Array(event.data), want);
          if (!ok) failures.push(checked);
          if (checked === expected.length) socket.close(1000, "done");
        };
        socket.onclose = (event) => {
          verdict.textContent = failures.length === 0 && checked === expected.length
            ? `selftest ok ${checked} messages close ${event.code} ${socket.extensions || "no-extensions"}`
            : `selftest failed: ${checked} checked, failures ${failures}, close ${event.code}`;
        };
        socket.onerror = () => { verdict.textContent = "selftest error"; };
        </script>
        </body></html>
        """)

    private static func html(_ text: String) -> HTTPServerResponse {
        HTTPServerResponse(headerFields: [.contentType: "text/html; charset=utf-8"], body: .string(text))
    }
}
