/// What ends a stream's life: decided once, by whoever makes the stream
/// (a libuv stream's maker, a TLS stream's).
package enum StreamLifetime: Sendable {
    /// The stream closes when its read subscription ends (after the writes
    /// already queued are flushed): a stream on its own.
    case readSubscription
    /// The stream's owner closes it (a `Server`, when the connection's
    /// handler ends), so it can still answer after the peer's EOF.
    case owner
}
