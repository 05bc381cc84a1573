#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by libuv: its error code, the operation that failed
/// and, where there is one, the address involved.
///
/// Match it by code: `catch let error as UVError where error.code == .addressInUse`,
/// or `catch UVError.Code.connectionRefused`. The description reads like a
/// command-line tool's error:
/// `uv_tcp_bind 127.0.0.1:7000: EADDRINUSE (address already in use)`.
public struct UVError: Error, Hashable, CustomStringConvertible, Sendable {
    /// libuv's code, such as `.connectionRefused` (`UV_ECONNREFUSED`).
    public let code: Code
    /// The libuv function or bridge operation that failed: `uv_tcp_connect`.
    public let operation: String
    /// The address involved, `host:port`, when there is one.
    public let address: String?

    /// The error `code` of `operation`, at `address` if there is one.
    public init(code: Code, operation: String, address: String? = nil) {
        self.code = code
        self.operation = operation
        self.address = address
    }

    /// The error for libuv status `status` (negative).
    init(status: Int32, operation: String, address: String? = nil) {
        self.init(code: Code(rawValue: status), operation: operation, address: address)
    }

    /// libuv's name for the code: `ECONNREFUSED`, `EADDRINUSE`, `EOF`.
    public var name: String {
        code.name
    }

    /// libuv's message for the code: `connection refused`.
    public var message: String {
        code.message
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
