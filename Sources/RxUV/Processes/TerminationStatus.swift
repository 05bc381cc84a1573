/// How a child process ended. A non-zero exit code is a value like any
/// other, not an error.
public enum TerminationStatus: Sendable, Hashable, CustomStringConvertible {
    /// The child exited with this code (`exit(code)`, 0 to 255).
    case exited(Int32)
    /// A signal killed the child (`SIGKILL` is 9, `SIGTERM` 15).
    case signaled(Int32)

    /// `true` for `.exited(0)`.
    public var isSuccess: Bool {
        self == .exited(0)
    }

    /// `exited(code)` or `signaled(number)`.
    public var description: String {
        switch self {
        case .exited(let code): "exited(\(code))"
        case .signaled(let signal): "signaled(\(signal))"
        }
    }
}
