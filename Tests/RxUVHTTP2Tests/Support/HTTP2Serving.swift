import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTestSupport
import XCTest

extension BridgeTestCase {
    /// Runs `body` on the test's loop with a cleartext HTTP/2 server on
    /// 127.0.0.1 whose streams `handler` answers, then drains the server
    /// (2 s) and returns what `body` returned.
    func withHTTP2Server<Result: Sendable>(
        _ http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), options: ServerOptions = ServerOptions(),
        handler: @escaping HTTPHandler,
        _ body: @escaping @Sendable (_ server: Server) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            let server = try await loop.rx.serveHTTP2(host: "127.0.0.1", port: 0, options: options, http: http, http2: http2, handler: handler).value
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

extension Loop {
    /// Runs the scripted HTTP/2 client (`Peers/h2-peer.py`) with
    /// `scenario` against `port`: what it printed, as a JSON object.
    func h2Peer(_ scenario: String, port: Int, file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        let output = try await run("python3", [besideTest("../Peers/h2-peer.py"), String(port), scenario], file: file, line: line)
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            XCTFail("h2-peer \(scenario): not a JSON object: \(output)", file: file, line: line)
            return [:]
        }
        return object
    }
}
