/// What `StreamConnection.writeAtOnce` did with a write.
enum StreamWriteAttempt {
    /// The kernel took every byte.
    case written
    /// The bytes from this offset on must be queued with `uv_write`.
    case mustQueue(from: Int)
    /// The write failed; nothing more will happen.
    case failed(UVError)
}
