/// How an in-memory pair (`InMemoryStream.pair(on:options:)`) carries its
/// bytes: how much each end takes before its peer's writes wait, and how
/// its reads are cut.
public struct InMemoryStreamOptions: Sendable {
    /// The bytes an end holds for its reader (written by its peer, not yet
    /// read), as a socket's receive buffer does: a write that finds it full
    /// waits in the writer's queue (`writeQueueSize`, against the
    /// watermarks) until the reader reads. `nil` (the default): no limit,
    /// every write is handed on at once.
    public var receiveBufferSize: Int?
    /// The most bytes one read delivers: a write larger than this arrives
    /// as several reads, in order, in the same loop turn. `nil` (the
    /// default): each write arrives as one read.
    public var maxReadSize: Int?
    /// What each end says its peer is (`peerDescription`), for the client
    /// end and the server end.
    public var peerNames: (client: String, server: String)

    /// Defaults: no receive buffer limit, one read per write, the peers
    /// named `in-memory server` (the client's) and `in-memory client` (the
    /// server's).
    public init(receiveBufferSize: Int? = nil, maxReadSize: Int? = nil, peerNames: (client: String, server: String) = ("in-memory server", "in-memory client")) {
        self.receiveBufferSize = receiveBufferSize.map { max($0, 1) }
        self.maxReadSize = maxReadSize.map { max($0, 1) }
        self.peerNames = peerNames
    }
}
