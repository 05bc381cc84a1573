import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTLS

/// A transfer that failed, as curl reports it: its exit code (`7` for a
/// refused connection), a one-word reason for `--parallel`'s result lines
/// (`ECONNREFUSED`, `requestTimeout`) and a message for standard error.
struct FetchFailure: Error, Sendable {
    /// curl's exit code for the failure.
    let exitCode: Int32
    /// One word: the `UVError`'s name, the `HTTPClientError`'s or
    /// `TLSError`'s code, or what the example itself refused.
    let reason: String
    /// What failed, for a person.
    let message: String

    /// A failure with curl's exit code `exitCode`.
    init(exitCode: Int32, reason: String, message: String) {
        self.exitCode = exitCode
        self.reason = reason
        self.message = message
    }

    /// The failure `error` of a request, or of its response's body once
    /// `afterHead`: the code curl gives the same failure.
    ///
    /// | error | exit |
    /// | --- | --- |
    /// | `HTTPClientError.invalidRequest` (a URL that is not http or https) | 1 |
    /// | a `UVError` from `getaddrinfo` (`EAI_NONAME`...) | 6 |
    /// | `ECONNREFUSED`, `ENETUNREACH`, `EHOSTUNREACH` | 7 |
    /// | `HTTPParseError`, `.unexpectedUpgrade` (a reply the decoder refused) | 8 |
    /// | `.connectionClosed` in the body (cut short) | 18 |
    /// | `.connectTimeout`, `.headTimeout`, `.requestTimeout`, `ETIMEDOUT`, a TLS handshake timeout | 28 |
    /// | another `TLSError` before the head | 35 |
    /// | `.redirect` (too many, a loop, https to http) | 47 |
    /// | `.connectionClosed` before the head (no reply) | 52 |
    /// | any other failure while receiving (`ECONNRESET`, a `TLSError` in the body...) | 56 |
    /// | a `TLSError` about the server's certificate | 60 |
    /// | `.decompression` | 61 |
    init(_ error: any Error, afterHead: Bool = false) {
        switch error {
        case let error as HTTPClientError:
            self.init(exitCode: Self.exitCode(for: error.code, afterHead: afterHead), reason: "\(error.code)", message: error.detail)
        case let error as UVError:
            self.init(exitCode: Self.exitCode(for: error), reason: error.name, message: "\(error)")
        case let error as TLSError:
            self.init(exitCode: afterHead ? 56 : Self.exitCode(for: error.code), reason: error.code.rawValue, message: "\(error)")
        case let error as HTTPParseError:
            self.init(exitCode: 8, reason: "malformedResponse", message: "a response the decoder refused: \(error.reason)")
        default:
            self.init(exitCode: 56, reason: "\(type(of: error))", message: "\(error)")
        }
    }

    /// `--fail` and a status of 400 or more: exit 22.
    static func status(_ code: Int) -> FetchFailure {
        FetchFailure(exitCode: 22, reason: "status\(code)", message: "the server answered \(code)")
    }

    /// The output (`-o FILE` or standard output) cannot be written: exit 23.
    static func output(_ detail: String) -> FetchFailure {
        FetchFailure(exitCode: 23, reason: "writeError", message: "cannot write the output: \(detail)")
    }

    /// The body to send (`--data-binary @FILE` or `@-`) or the list of
    /// URLs cannot be read: exit 26.
    static func input(_ detail: String) -> FetchFailure {
        FetchFailure(exitCode: 26, reason: "readError", message: "cannot read: \(detail)")
    }

    private static func exitCode(for code: HTTPClientError.Code, afterHead: Bool) -> Int32 {
        switch code {
        case .invalidRequest: 1
        case .unexpectedUpgrade: 8
        case .connectionClosed: afterHead ? 18 : 52
        case .connectTimeout, .headTimeout, .requestTimeout: 28
        case .redirect: 47
        case .decompression: 61
        default: 56
        }
    }

    private static func exitCode(for error: UVError) -> Int32 {
        if error.name.hasPrefix("EAI_") { return 6 }
        switch error.code {
        case .connectionRefused, .networkUnreachable, .hostUnreachable: return 7
        case .timedOut: return 28
        default: return 56
        }
    }

    private static func exitCode(for code: TLSError.Code) -> Int32 {
        switch code {
        case .handshakeTimeout: 28
        case .certificateExpired, .certificateNotYetValid, .hostnameMismatch, .unknownCA, .selfSignedCertificate, .certificateVerificationFailed: 60
        default: 35
        }
    }
}
