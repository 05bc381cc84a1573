import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient
import RxUVTLS
import RxUVTestSupport
import XCTest

/// Debian's nginx as the server: plain and TLS, its keep-alive limit, a
/// chunked (gzipped) file, and a slow upstream behind its proxy. nginx is
/// installed by scripts/setup.sh; without it the test fails.
final class HTTPClientNginxTests: BridgeTestCase {
    func testNginx_PlainTLSKeepAliveLimitGzipAndSlowUpstream() throws {
        let directory = try TemporaryDirectory("client-nginx")
        defer { directory.remove() }
        let root = directory.path + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let text = String(repeating: "a line of text for gzip\n", count: 4000)
        try text.write(toFile: root + "/text.txt", atomically: true, encoding: .utf8)
        let port = NginxPeer.freePort()
        let tlsPort = NginxPeer.freePort()
        let slowPort = NginxPeer.freePort()
        let certificates = TestCertificates.folder
        let http = """
                keepalive_requests 3;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root);
                    location = /plaintext { default_type text/plain; return 200 "hello"; }
                    location /gz/ { alias \(root)/; gzip on; gzip_types text/plain; gzip_min_length 0; }
                    location /slow/ { proxy_pass http://127.0.0.1:\(slowPort)/; }
                }
                server {
                    listen 127.0.0.1:\(tlsPort) ssl;
                    ssl_certificate \(certificates)/server.pem;
                    ssl_certificate_key \(certificates)/server.key;
                    location / { default_type text/plain; return 200 "secure"; }
                }
            """
        // The upstream answers after 300 ms.
        let slow = """
            import http.server, sys, time
            class Slow(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def do_GET(self):
                    time.sleep(0.3)
                    self.send_response(200); self.send_header("Content-Length", "4"); self.end_headers(); self.wfile.write(b"slow")
                def log_message(self, *a): pass
            http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Slow).serve_forever()
            """
        let nginx = NginxPeer(directory: directory)
        let results = try loop.run { [loop = loop!] in
            let upstream = try await loop.rx.spawn(ProcessOptions("python3", arguments: ["-c", slow, "\(slowPort)"])).value
            func stopUpstream() async {
                _ = try? await upstream.kill().value
                _ = try? await upstream.exit.value
            }
            do {
                try await NginxPeer.waitListening(on: loop, port: slowPort)
                let results = try await Self.requests(on: loop, nginx: nginx, http: http, port: port, tlsPort: tlsPort, text: text)
                await stopUpstream()
                return results
            } catch {
                await stopUpstream()
                throw error
            }
        }
        XCTAssertEqual(Array(results.prefix(7)), Array(repeating: "hello", count: 7))
        XCTAssertEqual(results[7], "gzip chunked true")
        XCTAssertEqual(Array(results.suffix(3)), ["secure", "slow", "requestTimeout"])
    }

    /// The requests of the test above, against nginx on `port` (and TLS on
    /// `tlsPort`).
    private static func requests(on loop: Loop, nginx: NginxPeer, http: String, port: Int, tlsPort: Int, text: String) async throws -> [String] {
        try await nginx.run(on: loop, http: http, port: port) {
            let configuration = HTTPClientConfiguration(
                headTimeout: .seconds(5), tls: TestCertificates.client, decompression: .enabled(maxDecodedLength: 1 << 20))
            let client = HTTPClient(loop: loop, configuration: configuration)
            var results: [String] = []
            // Seven requests over nginx's limit of three a connection:
            // each answered, the closes seen and new connections made.
            for _ in 0..<7 {
                results.append(try await client.execute(local(port, "/plaintext")).text())
            }
            let gz = try await client.execute(local(port, "/gz/text.txt"))
            results.append(
                "\(gz.headerFields[.contentEncoding] ?? "-") \(gz.headerFields[.transferEncoding] ?? "-") \(try await gz.text() == text)")
            results.append(try await client.execute(HTTPRequest(url: "https://127.0.0.1:\(tlsPort)/")).text())
            results.append(try await client.execute(local(port, "/slow/")).text())
            do {
                _ = try await client.execute(local(port, "/slow/"), timeout: .milliseconds(100))
                results.append("answered")
            } catch let error as HTTPClientError {
                results.append("\(error.code)")
            }
            try await client.shutdown().value
            return results
        }
    }

    /// nginx over TLS with HTTP/2 (`listen … ssl http2`): ALPN agrees on
    /// `h2`; thirty requests at once share its connection; a gzipped file
    /// inflated; a 1 MiB file whole.
    func testNginx_HTTP2OverTLS() throws {
        let directory = try TemporaryDirectory("client-nginx-h2")
        defer { directory.remove() }
        let root = directory.path + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let text = String(repeating: "a line of text for gzip\n", count: 4000)
        try text.write(toFile: root + "/text.txt", atomically: true, encoding: .utf8)
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try Data(large).write(to: URL(fileURLWithPath: root + "/large.bin"))
        let port = NginxPeer.freePort()
        let certificates = TestCertificates.folder
        let http = """
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificates)/server.pem;
                    ssl_certificate_key \(certificates)/server.key;
                    root \(root);
                    location = /plaintext { default_type text/plain; return 200 "hello $server_protocol"; }
                    location /gz/ { alias \(root)/; gzip on; gzip_types text/plain; gzip_min_length 0; }
                }
            """
        let nginx = NginxPeer(directory: directory)
        let results = try loop.run { [loop = loop!] in
            try await nginx.run(on: loop, http: http, port: port) {
                let configuration = HTTPClientConfiguration(tls: TestCertificates.client, decompression: .enabled(maxDecodedLength: 1 << 20))
                let client = HTTPClient(loop: loop, configuration: configuration)
                func url(_ path: String) throws -> HTTPRequest { try HTTPRequest(url: "https://127.0.0.1:\(port)\(path)") }
                var results: [String] = []
                let answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<30 {
                        group.addTask {
                            let response = try await client.execute(try url("/plaintext"))
                            return "\(response.majorVersion) " + (try await response.text())
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                results.append(answers.sorted().joined(separator: ","))
                let gz = try await client.execute(try url("/gz/text.txt"))
                results.append("\(gz.headerFields[.contentEncoding] ?? "-") \(try await gz.text() == text)")
                let file = try await client.execute(try url("/large.bin"))
                results.append("\(Array(try await file.body.collect(upTo: 2 << 20).value) == large)")
                try await client.shutdown().value
                return results
            }
        }
        XCTAssertEqual(results, ["2 hello HTTP/2.0", "gzip true", "true"])
    }
}
