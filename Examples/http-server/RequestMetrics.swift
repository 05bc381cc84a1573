import CoreMetrics
import HTTPTypes
import RxCore
import RxUVHTTP
import Synchronization

/// Every request counted by method and status (`http_requests_total`) and
/// timed (`http_request_duration_seconds`), through swift-metrics. The
/// counters are made once per method and status, then found in a
/// dictionary behind a lock (an uncontended lock costs less than a
/// factory lookup).
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let method: HTTPRequest.Method
        let status: Int
    }

    private let counters = Mutex<[Key: Counter]>([:])
    private let duration = Timer(label: "http_request_duration_seconds")

    /// `handler`, its answers counted and timed (an error as the status it
    /// is answered with).
    func metered(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request in
            let start = ContinuousClock.now
            return handler(request).do(
                onSuccess: { response in self.record(request.head.method, response.head.status.code, since: start) },
                onError: { error in self.record(request.head.method, (error as? HTTPError)?.status.code ?? 500, since: start) })
        }
    }

    private func record(_ method: HTTPRequest.Method, _ status: Int, since start: ContinuousClock.Instant) {
        let key = Key(method: method, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: "http_requests_total", dimensions: [("method", method.rawValue), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        duration.recordInterval(since: start)
    }
}

extension Timer {
    fileprivate func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
