import RxCore
import RxUV
import RxUVTLS
import XCTest

extension TLSTestCase {
    /// An echo over TLS: every read written back, in order; the handler
    /// ends when the peer's plaintext ends (or fails with its error).
    static func echo(_ served: ServedConnection<TLSStream>) -> Completable {
        served.connection.rx.data
            .concatMap { served.connection.write($0).asObservable() }
            .asCompletable()
    }

    /// Runs `body` on the test's loop with a TLS server of `context` on
    /// 127.0.0.1 whose connections `handler` serves, then drains the server
    /// (2 s) and returns what `body` returned.
    func withServer<Result: Sendable>(
        _ context: TLSContext, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<TLSStream>) -> Completable = TLSTestCase.echo,
        _ body: @escaping @Sendable (_ port: Int) async throws -> Result
    ) throws -> Result {
        try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, tls: context, options: options, handler: handler).value
            do {
                let result = try await body(server.address.port)
                try await server.drain(deadline: .seconds(2)).value
                return result
            } catch {
                try? await server.drain(deadline: .seconds(2)).value
                throw error
            }
        }
    }
}

extension ObservableType where Element == ByteBuffer {
    /// Every byte, once the sequence completes.
    func collected() -> Single<[UInt8]> {
        toArray().map { chunks in chunks.flatMap { $0 } }
    }
}
