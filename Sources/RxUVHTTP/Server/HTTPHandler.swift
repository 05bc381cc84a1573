import RxCore
import RxUV
import Tracing

/// What answers requests: a function from a request to a `Single` of its
/// response, called on the connection's loop thread. The `Single` may
/// succeed on any thread (the answer hops to the loop); an `HTTPError`
/// failure is answered with its status, any other with `500` (and
/// reported). Disposed when the connection closes before it answers.
public typealias HTTPHandler = @Sendable (HTTPServerRequest) -> Single<HTTPServerResponse>

/// An `async` handler: runs in a Task whose executor preference is the
/// connection's loop, so its body runs on the loop's thread between its
/// suspensions (see `Loop`'s `TaskExecutor` conformance).
public typealias HTTPAsyncHandler = @Sendable (HTTPServerRequest) async throws -> HTTPServerResponse

/// The `HTTPHandler` that runs `handler` in a Task on the request's loop
/// (`Single.create(executorPreference:work:)`); disposing it (the
/// connection closed) cancels the Task. When the request is traced, the
/// Task runs with the span's context as `ServiceContext.current`, so the
/// HTTP client's spans (and any other library's) become its children.
public func httpHandler(_ handler: @escaping HTTPAsyncHandler) -> HTTPHandler {
    { request in
        guard let context = request.serviceContext else {
            return Single.create(executorPreference: request.loop) { try await handler(request) }
        }
        return Single.create(executorPreference: request.loop) {
            try await ServiceContext.withValue(context) { try await handler(request) }
        }
    }
}
