import HTTPTypes
@_spi(Bridge) import RxCore
import RxUV
import Synchronization
import Tracing

/// An exchange and the redirects it leads to, as one producer: its sink
/// observes the first exchange itself and passes a response that is no
/// redirect straight on, so the common case subscribes no operator of its
/// own (a `flatMap` per request was its sinks, its inner subscription and
/// their generic metadata). A redirect to follow, as `HTTPRedirectPolicy`
/// and RFC 9110 say, has its body read (and dropped) up to
/// `HTTPClient.redirectBodyLimit`, so that its connection is kept, and the
/// next exchange's outcome becomes this one's.
final class HTTPRedirectFollowing: Producer<HTTPClientResponse> {
    fileprivate let client: HTTPClient
    fileprivate let request: HTTPRequest
    fileprivate let body: HTTPClientRequestBody
    fileprivate let timeout: Duration?
    fileprivate let trace: ServiceContext?
    /// The most redirects followed, and whether one from `https` to `http` is.
    fileprivate let max: Int
    fileprivate let allowsInsecure: Bool
    /// The URLs of the chain so far; `nil` for its first request.
    fileprivate let visited: [String]?

    init(
        client: HTTPClient, request: HTTPRequest, body: HTTPClientRequestBody, timeout: Duration?, trace: ServiceContext?, max: Int,
        allowsInsecure: Bool, visited: [String]?
    ) {
        self.client = client
        self.request = request
        self.body = body
        self.timeout = timeout
        self.trace = trace
        self.max = max
        self.allowsInsecure = allowsInsecure
        self.visited = visited
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == HTTPClientResponse {
        let sink = HTTPRedirectSink(following: self, observer: observer, cancel: cancel)
        let subscription = client.exchange(request, body: body, timeout: timeout, trace: trace).asObservable().subscribe(sink)
        return (sink: sink, subscription: subscription)
    }

    /// The hop after `response`: `nil` when it is no redirect to follow.
    /// Throws `HTTPClientError.redirect` for one that may not be followed.
    fileprivate func next(after response: HTTPClientResponse) throws -> Observable<HTTPClientResponse>? {
        guard let redirect = try HTTPRedirect(following: request, body: body, response: response) else { return nil }
        // The chain's URLs, made once a redirect comes.
        let visited = visited ?? [request.urlString]
        let next = redirect.request.urlString
        guard visited.count <= max else {
            throw HTTPClientError(.redirect, "more than \(max) redirects from \(visited[0])")
        }
        guard !visited.contains(next) else {
            throw HTTPClientError(.redirect, "a redirect loop: \(next) again")
        }
        guard allowsInsecure || request.scheme?.lowercased() != "https" || redirect.request.scheme == "https" else {
            throw HTTPClientError(.redirect, "a redirect from https to \(next), not allowed")
        }
        let following = HTTPRedirectFollowing(
            client: client, request: redirect.request, body: redirect.body, timeout: timeout, trace: trace, max: max,
            allowsInsecure: allowsInsecure, visited: visited + [next])
        return response.body.collect(upTo: HTTPClient.redirectBodyLimit).map { _ in () }.catchAndReturn(())
            .asObservable().flatMap { Single(raw: following) }
    }
}

/// Observes one exchange of a redirect chain: passes its response on, or
/// subscribes the next hop and passes that one's outcome on.
private final class HTTPRedirectSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == HTTPClientResponse {
    private let following: HTTPRedirectFollowing
    /// The next hop's subscription, once a redirect is followed; `disposed`
    /// once this sink is, so that a hop subscribed meanwhile is disposed.
    private let hop = Mutex<(subscription: Disposable?, disposed: Bool)>((nil, false))

    init(following: HTTPRedirectFollowing, observer: Observer, cancel: SinkDisposer) {
        self.following = following
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<HTTPClientResponse>) {
        switch event {
        case .next(let response):
            onNext(response)
        case .error(let error):
            forwardError(error)
        case .completed:
            onCompleted()
        }
    }

    /// The exchange's response: passed on, or, when it is a redirect to
    /// follow, the next hop subscribed in its place. Taken directly, with
    /// no `Event` built (in this generic sink, an `Event` would look its
    /// metadata up in the runtime).
    func onNext(_ response: HTTPClientResponse) {
        let next: Observable<HTTPClientResponse>?
        do {
            next = try following.next(after: response)
        } catch {
            forwardError(error)
            return
        }
        guard let next else {
            forwardNext(response)
            forwardCompleted()
            return
        }
        let subscription = next.subscribe { [self] event in
            switch event {
            case .next(let response): forwardNext(response)
            case .error(let error): forwardError(error)
            case .completed: forwardCompleted()
            }
        }
        let disposeNow = hop.withLock { hop -> Bool in
            if hop.disposed { return true }
            hop.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    /// A Single's completion, after its element, which ended this already.
    func onCompleted() {}

    override func dispose() {
        let subscription = hop.withLock { hop -> Disposable? in
            hop.disposed = true
            defer { hop.subscription = nil }
            return hop.subscription
        }
        subscription?.dispose()
        super.dispose()
    }
}
