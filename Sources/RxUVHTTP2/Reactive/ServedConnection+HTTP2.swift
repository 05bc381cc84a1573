import RxCore
import RxUV
import RxUVHTTP
import RxUVTLS

extension ServedConnection {
    /// Serves HTTP/2 on this connection with `handler`, the handler (or
    /// `HTTPRouter`) that serves HTTP/1.1: the connection's life as a
    /// `Server` handler returns it. The client speaks first, with HTTP/2's
    /// preface: over cleartext that is prior knowledge (`h2c`, as
    /// `curl --http2-prior-knowledge` and `h2load` speak it); over TLS the
    /// ALPN `h2` (`serveHTTP(versions:options:http2:handler:)` picks it).
    ///
    /// Each stream is a request, handed to `handler` on the connection's
    /// loop thread as an `HTTPServerRequest` whose `majorVersion` is 2;
    /// many at once, up to `http2.maxConcurrentStreams`. A request's body
    /// holds its stream's window shut until the handler reads it. A
    /// refusal is answered with the status HTTP/1.1 answers it with (`431`
    /// for a head over `options.limits`); a malformed frame, or a flood
    /// past `http2`'s bounds, ends the connection with a GOAWAY of the
    /// RFC's code.
    ///
    /// Completes when the connection should close: the session is over
    /// (a GOAWAY either way), the peer's end of input, the idle timeout
    /// (after a GOAWAY), or the server's drain once the streams in hand are
    /// answered (a GOAWAY first names the last stream taken); the server
    /// then closes it after its writes. Disposing (the server's reset)
    /// stops it: every handler's `Single` and body is disposed. On the
    /// connection's loop thread.
    public func serveHTTP2(
        options: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPHandler
    ) -> Completable {
        HTTP2ServerConnection(self, options: options, http2: http2, handler: handler).life
    }

    /// `serveHTTP2(options:http2:handler:)` with an `async` handler, run
    /// on the connection's loop.
    public func serveHTTP2(
        options: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), handler: @escaping HTTPAsyncHandler
    ) -> Completable {
        serveHTTP2(options: options, http2: http2, handler: httpHandler(handler))
    }
}

extension ServedConnection where Connection == TLSStream {
    /// Serves HTTP/2 or HTTP/1.1 with `handler`, whichever the TLS
    /// handshake agreed on through ALPN: `h2` is served as
    /// `serveHTTP2(options:http2:handler:)` does, anything else (or no
    /// ALPN) as `serveHTTP(options:handler:)` does. The server's
    /// `TLSConfiguration.applicationProtocols` says what is offered:
    /// `["h2", "http/1.1"]`, most preferred first. A failed handshake ends
    /// the connection (the failure is the client's, not reported).
    public func serveHTTP(
        versions: HTTPVersions = [.http1, .http2], options: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(),
        handler: @escaping HTTPHandler
    ) -> Completable {
        connection.handshake
            .andThen(
                Completable.deferred { [self] in
                    if connection.session?.applicationProtocol == "h2", versions.contains(.http2) {
                        return serveHTTP2(options: options, http2: http2, handler: handler)
                    }
                    guard versions.contains(.http1) else { return Completable.empty() }
                    return serveHTTP(options: options, handler: handler)
                }
            )
            .catch { _ in Completable.empty() }
    }
}

/// The versions of HTTP a server speaks on a TLS connection, chosen by
/// ALPN (`ServedConnection.serveHTTP(versions:options:http2:handler:)`).
public struct HTTPVersions: OptionSet, Sendable, Hashable {
    /// The set's bits: `http1` is bit 0, `http2` bit 1.
    public let rawValue: Int

    /// The set of `rawValue`'s bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// HTTP/1.1 (and 1.0).
    public static let http1 = HTTPVersions(rawValue: 1 << 0)
    /// HTTP/2.
    public static let http2 = HTTPVersions(rawValue: 1 << 1)
}

extension ServedConnection {
    /// Serves the `versions` of HTTP asked for on this connection, with the
    /// same `handler`: `serveHTTP(options:handler:)` for `[.http1]`,
    /// `serveHTTP2(options:http2:handler:)` for `[.http2]`, and for both,
    /// whichever the client's first bytes speak: HTTP/2's preface (prior
    /// knowledge, `h2c`) or an HTTP/1.1 request. The bytes read to tell
    /// (at most 24) are handed to the protocol chosen, which reads them
    /// first. A client that sends nothing for `options.headTimeout` is
    /// closed. Over TLS, `ServedConnection<TLSStream>` chooses by ALPN
    /// instead. On the connection's loop thread.
    public func serveHTTP(
        versions: HTTPVersions, options: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(),
        handler: @escaping HTTPHandler
    ) -> Completable {
        if !versions.contains(.http2) { return serveHTTP(options: options, handler: handler) }
        if !versions.contains(.http1) { return serveHTTP2(options: options, http2: http2, handler: handler) }
        let served = self
        let sniffing = Single<HTTPVersionSniffer.Verdict>.create { observer in
            let sniffer = HTTPVersionSniffer(stream: served.connection) { observer(.success($0)) }
            // The sniffer is touched on the loop thread only.
            let sending = UncheckedSendable(sniffer)
            served.loop.enter { served.connection.beginReading(sending.value) }
            return Disposables.create { served.loop.enter { sending.value.stop() } }
        }
        let timed = options.headTimeout > .zero ? sniffing.timeout(RxTimeInterval(options.headTimeout), scheduler: loop) : sniffing
        return timed.flatMapCompletable { verdict in
            switch verdict {
            case .http1(let bytes):
                served.over(ReplayedStream(served.connection, prefix: bytes)).serveHTTP(options: options, handler: handler)
            case .http2(let bytes):
                served.over(ReplayedStream(served.connection, prefix: bytes)).serveHTTP2(options: options, http2: http2, handler: handler)
            case .ended:
                Completable.empty()
            }
        }
        .catch { _ in Completable.empty() }
    }
}
