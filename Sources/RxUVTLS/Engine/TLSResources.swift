import Synchronization

/// Counts of the OpenSSL objects RxUVTLS holds, in every build: what the
/// leak gates of a test (or a daemon's own health check) compare with zero.
public enum TLSResources {
    private static let contexts = Atomic<Int>(0)
    private static let connections = Atomic<Int>(0)

    /// `SSL_CTX`s alive: one per `TLSContext` state, plus one per SNI name.
    public static var liveContexts: Int {
        contexts.load(ordering: .acquiring)
    }

    /// `SSL`s alive: one per `TLSStream` not yet released.
    public static var liveConnections: Int {
        connections.load(ordering: .acquiring)
    }

    static func contextMade() {
        contexts.add(1, ordering: .releasing)
    }

    static func contextFreed() {
        contexts.subtract(1, ordering: .releasing)
    }

    static func connectionMade() {
        connections.add(1, ordering: .releasing)
    }

    static func connectionFreed() {
        connections.subtract(1, ordering: .releasing)
    }
}
