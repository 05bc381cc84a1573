/// One UDP datagram received on a `UDPSocket`.
public struct Datagram: Sendable, Hashable {
    /// The payload; may be empty (a zero-length datagram is a datagram).
    public let bytes: ByteBuffer
    /// Who sent it.
    public let sender: SocketAddress
    /// `true` when the datagram was larger than the receive buffer and the
    /// kernel dropped its tail (`UV_UDP_PARTIAL`).
    public let isTruncated: Bool

    /// A datagram of `bytes` from `sender`.
    public init(bytes: ByteBuffer, sender: SocketAddress, isTruncated: Bool = false) {
        self.bytes = bytes
        self.sender = sender
        self.isTruncated = isTruncated
    }
}
