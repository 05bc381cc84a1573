import RxCore
import RxUV
import RxUVHTTP

/// Tells HTTP/2 with prior knowledge from HTTP/1.1 on a cleartext
/// connection by its first bytes: HTTP/2's client preface
/// (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, RFC 9113 §3.4), or anything that
/// parts from it. It reads the connection until it can tell (at most the
/// preface's 24 bytes), then lets it go and hands the bytes it read back
/// (`ReplayedStream`) to the protocol it chose, which reads them as if it
/// had read them itself.
final class HTTPVersionSniffer: ByteStreamReader {
    /// HTTP/2's client preface.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// What the first bytes said.
    enum Verdict {
        case http1(ByteBuffer)
        case http2(ByteBuffer)
        /// The peer's input ended (or failed) before it could be told.
        case ended
    }

    private let stream: any ByteStream
    private let decided: (Verdict) -> Void
    private var gathered: [UInt8] = []
    private var isDecided = false

    init(stream: any ByteStream, decided: @escaping (Verdict) -> Void) {
        self.stream = stream
        self.decided = decided
    }

    func received(_ bytes: ByteBuffer) {
        guard !isDecided else { return }
        gathered.append(contentsOf: bytes)
        let compared = min(gathered.count, Self.preface.count)
        if gathered[..<compared].elementsEqual(Self.preface[..<compared]) {
            if compared == Self.preface.count { decide(.http2(ByteBuffer(gathered))) }
        } else {
            decide(.http1(ByteBuffer(gathered)))
        }
    }

    func ended(_ error: (any Error)?) {
        guard !isDecided else { return }
        isDecided = true
        decided(.ended)
    }

    /// Stops reading, then says what was read.
    private func decide(_ verdict: Verdict) {
        isDecided = true
        stream.endReading(self)
        decided(verdict)
    }

    /// Stops reading, undecided (the connection's life was disposed).
    func stop() {
        guard !isDecided else { return }
        isDecided = true
        stream.endReading(self)
    }
}
