import HTTPTypes
import RxCore
import RxUV

extension HTTPClient {
    /// Sends `request` with `body` and returns the response once its head
    /// has arrived; its body follows (`response.body.values` as an
    /// `AsyncSequence` with backpressure, or `collect(upTo:)`). The same
    /// exchange as `rx.send(_:body:timeout:)`, with its errors; cancelling
    /// the task before the head arrives cancels the request (a connection
    /// it was sent on is closed) and throws `CancellationError`.
    public func execute(_ request: HTTPRequest, body: HTTPClientRequestBody = .empty, timeout: Duration? = nil) async throws -> HTTPClientResponse {
        try await send(request, body: body, timeout: timeout).value
    }
}
