import RxCore
import RxUV
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

extension BridgeTestCase {
    /// Runs `body` with a client and a Python server (`python3 arguments…`,
    /// which prints its port on its first line, then serves on 127.0.0.1
    /// until killed); then shuts the client down and kills the server.
    func withPythonServer<Result: Sendable>(
        _ arguments: [String], _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        _ body: @escaping @Sendable (_ client: HTTPClient, _ port: Int) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            let server = try await loop.rx.spawn(ProcessOptions("python3", arguments: arguments)).value
            let client = HTTPClient(loop: loop, configuration: configuration)
            func stop() async {
                try? await client.shutdown().value
                _ = try? await server.kill().value
                _ = try? await server.exit.value
            }
            do {
                let first = try await server.stdout.scan(into: "") { $0 += $1.string }.filter { $0.contains("\n") }.take(1).asSingle().value
                guard let port = Int(first.prefix { $0 != "\n" }) else { throw HTTPClientError(.invalidRequest, "the server said \(first)") }
                let result = try await body(client, port)
                await stop()
                return result
            } catch {
                await stop()
                throw error
            }
        }
    }
}
