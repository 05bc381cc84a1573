import ExampleSupport
import RxCore
import RxUV
import RxUVTLS

/// What one connection attempt found.
enum ProbeOutcome: CustomStringConvertible {
    /// Connected after this long.
    case open(Duration)
    /// Connected, then a TLS handshake done, after these long; `session`
    /// says what was agreed on.
    case tlsOpen(Duration, handshake: Duration, TLSSession)
    /// Connected; the TLS handshake failed.
    case tlsFailed(TLSError)
    /// Refused or failed with a libuv error.
    case failed(UVError)
    /// No answer within `--timeout`.
    case timedOut
    /// Any other failure.
    case other(Error)

    init(_ error: Error) {
        switch error {
        case let error as UVError: self = .failed(error)
        case let error as TLSError: self = .tlsFailed(error)
        case RxError.timeout: self = .timedOut
        default: self = .other(error)
        }
    }

    /// `open  0.21 ms`, `open  0.21 ms  tls 1.30 ms TLSv1.3 TLS_AES_256_GCM_SHA384 expires in 824 days`,
    /// `closed ECONNREFUSED`, `timeout`, `tls-error certificateExpired (…)`,
    /// `error EAI_NONAME (unknown node or service)`.
    var description: String {
        switch self {
        case .open(let latency): return "open  \(Console.fixed(latency.milliseconds, 2)) ms"
        case .tlsOpen(let latency, let handshake, let session):
            let expiry = session.peerCertificate.map { " expires in \($0.secondsUntilExpiry / 86_400) days" } ?? ""
            return "open  \(Console.fixed(latency.milliseconds, 2)) ms  tls \(Console.fixed(handshake.milliseconds, 2)) ms \(session.protocolVersion) \(session.cipherSuite)\(expiry)"
        case .tlsFailed(let error): return "tls-error \(error.code) (\(error.reason))"
        case .failed(let error) where error.code == UVError.Code.connectionRefused: return "closed \(error.name)"
        case .failed(let error): return "error \(error.shortDescription)"
        case .timedOut: return "timeout"
        case .other(let error): return "error \(error)"
        }
    }
}

/// The running counts for one target.
struct ProbeStatistics: CustomStringConvertible {
    let target: Endpoint
    private(set) var sent = 0
    private(set) var ok = 0
    private var latencies = (min: Double.infinity, max: 0.0, sum: 0.0)

    init(target: Endpoint) {
        self.target = target
    }

    mutating func record(_ outcome: ProbeOutcome) {
        sent += 1
        let latency: Duration
        switch outcome {
        case .open(let connected), .tlsOpen(let connected, _, _): latency = connected
        default: return
        }
        ok += 1
        let milliseconds = latency.milliseconds
        latencies = (min(latencies.min, milliseconds), max(latencies.max, milliseconds), latencies.sum + milliseconds)
    }

    /// `127.0.0.1:7000  sent 3  ok 3  loss 0.0%  min/avg/max 0.12/0.20/0.31 ms`.
    var description: String {
        let loss = sent == 0 ? 0 : Double(sent - ok) * 100 / Double(sent)
        var line = "\(target)  sent \(sent)  ok \(ok)  loss \(Console.fixed(loss, 1))%"
        if ok > 0 {
            let average = latencies.sum / Double(ok)
            line += "  min/avg/max \(Console.fixed(latencies.min, 2))/\(Console.fixed(average, 2))/\(Console.fixed(latencies.max, 2)) ms"
        }
        return line
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
