import RxCore
import RxUV

/// The TLS stream's reader of its transport: not retained by it, so a
/// stream nobody holds goes away (and stops reading its transport).
/// Disposing it (from any thread) ends its reading of the transport.
// @unchecked Sendable: `stream` is read on the loop thread only (the
// transport calls its reader there); `transport` is immutable.
final class TLSTransportReader: ByteStreamReader, Disposable, @unchecked Sendable {
    private weak var stream: TLSStream?
    private let transport: any ByteStream

    init(_ stream: TLSStream, transport: any ByteStream) {
        self.stream = stream
        self.transport = transport
    }

    func received(_ bytes: ByteBuffer) {
        stream?.transportEvent(.next(bytes))
    }

    func ended(_ error: (any Error)?) {
        stream?.transportEvent(error.map { .error($0) } ?? .completed)
    }

    /// Ends the reading of the transport, on the loop thread (at once
    /// there): the transport lets go of this reader.
    func dispose() {
        let transport = self.transport
        transport.loop.enter { [self] in transport.endReading(self) }
    }
}
