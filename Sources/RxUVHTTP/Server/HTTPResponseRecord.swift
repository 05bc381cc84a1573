import HTTPTypes
import RxCore

/// What `HTTPServerOptions.onResponse` is told of each response as its head
/// is written: enough to count requests by method and status and to time
/// them (as `http_requests_total` and `http_request_duration_seconds` do),
/// with no operator per request in the handler's `Single`.
public struct HTTPResponseRecord: Sendable {
    /// The request's method (`GET` for a refusal that answers in place of
    /// a request the server could not read).
    public var method: HTTPRequest.Method
    /// The response's status.
    public var status: HTTPResponse.Status
    /// From the request's head decoded to the response's head written, in
    /// nanoseconds of the monotonic clock (`Loop.monotonicNanoseconds`):
    /// the handler's time and the wait for the requests ahead of it; zero
    /// for a refusal. What swift-metrics' `Timer.recordNanoseconds` takes,
    /// with no conversion.
    public var nanoseconds: Int64

    /// `nanoseconds` as a `Duration`.
    public var duration: Duration {
        get { .nanoseconds(nanoseconds) }
        set { nanoseconds = RxTimeInterval(newValue).nanoseconds }
    }

    /// A record of one response that took `nanoseconds`.
    public init(method: HTTPRequest.Method, status: HTTPResponse.Status, nanoseconds: Int64) {
        self.method = method
        self.status = status
        self.nanoseconds = nanoseconds
    }

    /// A record of one response that took `duration`.
    public init(method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        self.init(method: method, status: status, nanoseconds: RxTimeInterval(duration).nanoseconds)
    }
}
