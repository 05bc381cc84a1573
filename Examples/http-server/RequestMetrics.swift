import CoreMetrics
import HTTPTypes
import RxUVHTTP
import Synchronization

/// Every request counted by method and status (`http_requests_total`) and
/// timed (`http_request_duration_seconds`), through swift-metrics, as the
/// server writes each response (`HTTPServerOptions.onResponse`): no
/// operator per request. The counters are made once per method and status,
/// then found in a dictionary behind a lock (an uncontended lock costs less
/// than a factory lookup).
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let method: HTTPRequest.Method
        let status: Int
    }

    private let counters = Mutex<[Key: Counter]>([:])
    private let duration = Timer(label: "http_request_duration_seconds")

    /// Counts and times one response: an `HTTPServerOptions.onResponse`.
    func record(_ response: HTTPResponseRecord) {
        let key = Key(method: response.method, status: response.status.code)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "http_requests_total", dimensions: [("method", key.method.rawValue), ("status", String(key.status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        let (seconds, attoseconds) = response.duration.components
        duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
