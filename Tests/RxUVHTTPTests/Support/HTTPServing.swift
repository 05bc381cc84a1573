import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

extension BridgeTestCase {
    /// Runs `body` on the test's loop with an HTTP server on 127.0.0.1
    /// whose requests `handler` answers, then drains the server (2 s) and
    /// returns what `body` returned.
    func withHTTPServer<Result: Sendable>(
        _ http: HTTPServerOptions = HTTPServerOptions(), options: ServerOptions = ServerOptions(),
        handler: @escaping HTTPHandler,
        _ body: @escaping @Sendable (_ server: Server) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            let server = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, options: options, http: http, handler: handler).value
            do {
                let result = try await body(server)
                try await server.drain(deadline: .seconds(2)).value
                return result
            } catch {
                try? await server.drain(deadline: .seconds(2)).value
                throw error
            }
        }
    }
}

/// A Python client that sends its argument's bytes (a Python bytes
/// literal) to port `argv[1]`, half-closes unless told not to, and prints
/// everything it reads until the server closes, as text.
let rawHTTPClient = """
    import socket, sys, ast
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.settimeout(10)
    s.sendall(ast.literal_eval(sys.argv[2]))
    if len(sys.argv) < 4:
        s.shutdown(socket.SHUT_WR)
    received = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        received += chunk
    sys.stdout.write(received.decode("latin-1"))
    """

extension String {
    /// The status codes of the HTTP responses in this text, in order.
    var statusCodes: [Int] {
        components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }
}
