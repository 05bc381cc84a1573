import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// Servers nobody here wrote: Python's `http.server` (HTTP/1.0 answers,
/// files) and an h11 server with the edge cases (`h11-edge-server.py`).
final class HTTPClientPeerTests: BridgeTestCase {
    /// Python's `http.server` serving a folder: a file byte for byte (an
    /// HTTP/1.0 answer, the connection closed after each), `HEAD`, a 404,
    /// one after the other on the same client.
    func testPythonHTTPServer_FilesHeadAndNotFound() throws {
        let directory = try TemporaryDirectory("client-python-server")
        defer { directory.remove() }
        var generator = SeededGenerator(seed: 51)
        let content = (0..<1_500_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(content).write(to: URL(fileURLWithPath: directory.path + "/data.bin"))
        let script = """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            handler.func.log_message = lambda *a: None
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let results = try withPythonServer(["-c", script, directory.path]) { client, port in
            var results: [String] = []
            let file = try await client.execute(local(port, "/data.bin"))
            let bytes = try await file.body.collect(upTo: 4 << 20).value
            results.append("\(file.status.code) 1.\(file.minorVersion) \(bytes.count) \(Array(bytes) == content)")
            let head = try await client.execute(local(port, "/data.bin", .head))
            results.append("\(head.status.code) \(head.headerFields[.contentLength] ?? "-") \(try await head.text().count)")
            let missing = try await client.execute(local(port, "/missing"))
            results.append("\(missing.status.code) \(try await missing.text().contains("404"))")
            return results
        }
        XCTAssertEqual(results, ["200 1.0 1500000 true", "200 1500000 0", "404 true"])
    }

    /// The h11 server's edge cases, on one client.
    func testH11Server_EdgeCases() throws {
        let results = try withPythonServer([besideTest("h11-edge-server.py")]) { client, port in
            var results: [String] = []
            // A chunked body with trailers: the body whole, the trailers read and dropped.
            results.append(try await client.execute(local(port, "/chunked-trailers")).text())
            // A 103 before the answer.
            results.append(try await client.execute(local(port, "/early-hints")).text())
            // A body that the close ends.
            let closeDelimited = try await client.execute(local(port, "/close-delimited"))
            results.append("\(closeDelimited.body.declaredLength.map(String.init) ?? "nil") \(try await closeDelimited.text().count)")
            // Expect: 100-continue, then the body.
            let expecting = local(port, "/echo", .post, fields: [.expect: "100-continue"])
            results.append(try await client.execute(expecting, body: .string("after continue")).text())
            // A chunked upload.
            results.append(try await client.execute(local(port, "/echo", .post), body: .stream(.from([ByteBuffer(string: "a"), ByteBuffer(string: "b")]))).text())
            // The server closes the kept-alive connection after 100 ms idle;
            // the next request goes on a new one.
            try await Task.sleep(for: .milliseconds(300))
            results.append(try await client.execute(local(port, "/after-idle")).text())
            return results
        }
        XCTAssertEqual(
            results,
            [
                "one two three",
                "hints",
                "nil 16000",
                "POST /echo length 14 after continue",
                "POST /echo chunked 2 ab",
                "GET /after-idle length 0 ",
            ])
    }

    /// Compressed bodies inflated as they arrive, each failure a typed
    /// error that leaves the client serving; with decompression off, the
    /// server is not asked for compression.
    func testH11Server_Decompression() throws {
        let plain = String(repeating: "compressed text ", count: 5000)
        let configuration = HTTPClientConfiguration(decompression: .enabled(maxDecodedLength: 1 << 20))
        let results = try withPythonServer([besideTest("h11-edge-server.py")], configuration) { client, port in
            var results: [String] = []
            for path in ["/gzip", "/deflate", "/corrupt", "/bomb", "/gzip"] {
                do {
                    let response = try await client.execute(local(port, path))
                    let text = try await response.text()
                    results.append("\(response.headerFields[.contentEncoding] ?? "-") \(text == plain)")
                } catch let error as HTTPClientError {
                    results.append("\(error.code): \(error.detail)")
                }
            }
            return results
        }
        XCTAssertEqual(results[0], "gzip true")
        XCTAssertEqual(results[1], "deflate true")
        XCTAssertTrue(results[2].hasPrefix("decompression: gzip data is corrupt"), results[2])
        XCTAssertEqual(results[3], "decompression: the body inflates past 1048576 bytes")
        XCTAssertEqual(results[4], "gzip true")
        let off = try withPythonServer([besideTest("h11-edge-server.py")]) { client, port in
            let response = try await client.execute(local(port, "/gzip"))
            return "\(response.headerFields[.contentEncoding] ?? "-") \(try await response.text() == plain)"
        }
        XCTAssertEqual(off, "- true")
    }
}
