internal import CLibUV

/// A failure reported by libuv: its error code and name, the operation that
/// failed and, where there is one, the address involved.
///
/// The description reads like a command-line tool's error:
/// `uv_tcp_bind 127.0.0.1:7000: EADDRINUSE (address already in use)`.
public struct UVError: Error, Equatable, Hashable, CustomStringConvertible, Sendable {
    /// libuv's (negative) error code, such as `UV_ECONNREFUSED`.
    public let code: Int32
    /// libuv's name for the code: `ECONNREFUSED`, `EADDRINUSE`, `EOF`.
    public let name: String
    /// libuv's message for the code: `connection refused`.
    public let message: String
    /// The libuv function or bridge operation that failed: `uv_tcp_connect`.
    public let operation: String
    /// The address involved, `host:port`, when there is one.
    public let address: String?

    /// Creates the error for libuv status `code` from `operation`.
    public init(code: Int32, operation: String, address: String? = nil) {
        self.code = code
        self.name = String(cString: uv_err_name(code))
        self.message = String(cString: uv_strerror(code))
        self.operation = operation
        self.address = address
    }

    /// `operation address: NAME (message)`.
    public var description: String {
        if let address {
            return "\(operation) \(address): \(name) (\(message))"
        }
        return "\(operation): \(name) (\(message))"
    }

    /// `NAME (message)`, without the operation: for messages to end users.
    public var shortDescription: String {
        "\(name) (\(message))"
    }
}

extension UVError {
    /// A libuv error code under its libuv name, for matching: `error.code == UVError.Code.connectionRefused`.
    public enum Code {
        /// `EADDRINUSE`: the address is already in use.
        public static let addressInUse = Int32(UV_EADDRINUSE.rawValue)
        /// `EADDRNOTAVAIL`: the address is not available on this machine.
        public static let addressNotAvailable = Int32(UV_EADDRNOTAVAIL.rawValue)
        /// `EACCES`: permission denied.
        public static let permissionDenied = Int32(UV_EACCES.rawValue)
        /// `ECONNREFUSED`: nobody listens at the address.
        public static let connectionRefused = Int32(UV_ECONNREFUSED.rawValue)
        /// `ECONNRESET`: the peer reset the connection.
        public static let connectionReset = Int32(UV_ECONNRESET.rawValue)
        /// `EPIPE`: the peer has closed the connection.
        public static let brokenPipe = Int32(UV_EPIPE.rawValue)
        /// `ECANCELED`: the operation was cancelled.
        public static let cancelled = Int32(UV_ECANCELED.rawValue)
        /// `EINVAL`: an invalid argument.
        public static let invalidArgument = Int32(UV_EINVAL.rawValue)
        /// `EBUSY`: the resource is busy (a loop with open handles).
        public static let busy = Int32(UV_EBUSY.rawValue)
        /// `ENOTCONN`: the socket is not connected (or already closed).
        public static let notConnected = Int32(UV_ENOTCONN.rawValue)
        /// `EOF`: end of stream.
        public static let endOfFile = Int32(UV_EOF.rawValue)
        /// `EAGAIN`: the operation would block (nothing was done).
        public static let wouldBlock = Int32(UV_EAGAIN.rawValue)
        /// `ETIMEDOUT`: the operation timed out.
        public static let timedOut = Int32(UV_ETIMEDOUT.rawValue)
        /// Statuses a listening socket reports for one connection while it
        /// keeps listening: `EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`,
        /// `ECONNABORTED`.
        public static let transientAcceptFailures: Set<Int32> = [
            Int32(UV_EMFILE.rawValue), Int32(UV_ENFILE.rawValue), Int32(UV_ENOMEM.rawValue),
            Int32(UV_ENOBUFS.rawValue), Int32(UV_ECONNABORTED.rawValue),
        ]
        /// `EAI_NONAME`: the host name is unknown.
        public static let unknownHost = Int32(UV_EAI_NONAME.rawValue)
    }
}
