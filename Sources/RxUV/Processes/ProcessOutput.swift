/// What `loop.rx.run` collected from a child that ran to its end.
public struct ProcessOutput: Sendable, Equatable {
    /// How the child ended.
    public let status: TerminationStatus
    /// Everything the child wrote to its standard output.
    public let standardOutput: ByteBuffer
    /// Everything the child wrote to its standard error.
    public let standardError: ByteBuffer

    /// The output of a child that ended with `status`.
    public init(status: TerminationStatus, standardOutput: ByteBuffer, standardError: ByteBuffer) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// A child's output broke a limit `loop.rx.run` was given. The child is
/// torn down (SIGTERM, then SIGKILL after the grace period).
public struct ProcessOutputLimitExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    /// `"stdout"` or `"stderr"`.
    public let stream: String
    /// The limit, in bytes.
    public let limit: Int
    /// The executable.
    public let executable: String

    /// "git: stdout exceeded the output limit of 1048576 bytes".
    public var description: String {
        "\(executable): \(stream) exceeded the output limit of \(limit) bytes"
    }
}
