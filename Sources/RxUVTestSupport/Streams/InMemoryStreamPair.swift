/// The two ends of an in-memory connection (`InMemoryStream.pair(on:)`):
/// what `client` writes `server` reads, and the other way round.
public struct InMemoryStreamPair: Sendable {
    /// The end a test drives as the client (or as either side: the names
    /// only say which end reads first in a delivery turn, the client's).
    public let client: InMemoryStream
    /// The end a test serves (hands to a server connection, wraps in TLS).
    public let server: InMemoryStream
}
