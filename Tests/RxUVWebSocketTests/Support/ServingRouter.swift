import RxUV
import RxUVHTTP

/// Serves `router` on 127.0.0.1, on a port the system picks, on `loop`;
/// runs `body` with the server, then drains it (2 s), whether `body`
/// returned or threw: what each socket suite's tests run inside.
func serving<Result: Sendable>(_ router: HTTPRouter, on loop: Loop, _ body: @Sendable (Server) async throws -> Result) async throws -> Result {
    let server = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, handler: router.handler).value
    do {
        let result = try await body(server)
        try await server.drain(deadline: .seconds(2)).value
        return result
    } catch {
        try? await server.drain(deadline: .seconds(2)).value
        throw error
    }
}
