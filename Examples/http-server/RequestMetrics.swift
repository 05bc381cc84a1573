import CoreMetrics
import HTTPTypes
import RxUVHTTP
import Synchronization

/// Every request counted by method and status (`http_requests_total`) and
/// timed (`http_request_duration_seconds`), through swift-metrics, as the
/// server writes each response (`HTTPServerOptions.onResponse`): no
/// operator per request. The counters are made once per method and status,
/// then found in a dictionary behind a lock (an uncontended lock costs less
/// than a factory lookup), the one used last without a lookup.
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let method: HTTPRequest.Method
        let status: Int
    }

    private struct Counters {
        var byKey: [Key: Counter] = [:]
        /// The counter used last: most responses of a server are of one
        /// kind, found by comparing a method's name and a status instead of
        /// hashing them.
        var last: (key: Key, counter: Counter)?
    }

    private let counters = Mutex(Counters())
    private let duration = Timer(label: "http_request_duration_seconds")

    /// Counts and times one response: an `HTTPServerOptions.onResponse`.
    func record(_ response: HTTPResponseRecord) {
        let key = Key(method: response.method, status: response.status.code)
        let counter = counters.withLock { counters in
            if let last = counters.last, last.key == key { return last.counter }
            let counter =
                counters.byKey[key]
                ?? Counter(label: "http_requests_total", dimensions: [("method", key.method.rawValue), ("status", String(key.status))])
            counters.byKey[key] = counter
            counters.last = (key, counter)
            return counter
        }
        counter.increment()
        duration.recordNanoseconds(response.nanoseconds)
    }
}
