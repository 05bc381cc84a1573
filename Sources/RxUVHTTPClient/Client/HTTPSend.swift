import HTTPTypes
@_spi(Bridge) import RxCore
import RxUV
import Synchronization
import Tracing

/// A request sent, and the redirects it leads to, as one producer: the
/// work of `rx.send` and `rx.upgrade`. Its sink is the first exchange's
/// observer (`HTTPExchangeObserver`) and the exchange is its subscription,
/// so a request subscribes no operator and makes no closure of its own
/// (a `Single.create` per request was its sinks, closures and their
/// generic metadata). A response that is no redirect to follow goes
/// straight on. A redirect to follow, as `HTTPRedirectPolicy` and RFC 9110
/// say, has its body read (and dropped) up to
/// `HTTPClient.redirectBodyLimit`, so that its connection is kept, and the
/// next hop's outcome (another `HTTPSend`) becomes this one's.
final class HTTPSend: Producer<HTTPClientResponse> {
    fileprivate let client: HTTPClient
    fileprivate let request: HTTPRequest
    fileprivate let body: HTTPClientRequestBody
    fileprivate let timeout: Duration?
    fileprivate let trace: ServiceContext?
    /// Whether redirects are followed (`HTTPRedirectPolicy`).
    fileprivate let redirects: HTTPRedirectPolicy
    /// The request asks to switch protocols (`rx.upgrade`).
    fileprivate let upgrades: Bool
    /// The URLs of the chain so far; `nil` for its first request.
    fileprivate let visited: [String]?

    init(
        client: HTTPClient, request: HTTPRequest, body: HTTPClientRequestBody, timeout: Duration?, trace: ServiceContext?,
        redirects: HTTPRedirectPolicy, upgrades: Bool = false, visited: [String]? = nil
    ) {
        self.client = client
        self.request = request
        self.body = body
        self.timeout = timeout
        self.trace = trace
        self.redirects = redirects
        self.upgrades = upgrades
        self.visited = visited
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer, cancel: SinkDisposer
    ) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == HTTPClientResponse {
        let sink = HTTPSendSink(send: self, observer: observer, cancel: cancel)
        let exchange = client.begin(request, body: body, timeout: timeout, upgrades: upgrades, trace: trace, observer: sink)
        return (sink: sink, subscription: exchange)
    }

    /// The hop after `response`: `nil` when it is no redirect to follow.
    /// Throws `HTTPClientError.redirect` for one that may not be followed.
    fileprivate func next(after response: HTTPClientResponse) throws -> Observable<HTTPClientResponse>? {
        guard case .follow(let max, let allowsInsecure) = redirects,
            let redirect = try HTTPRedirect(following: request, body: body, response: response)
        else { return nil }
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
        let following = HTTPSend(
            client: client, request: redirect.request, body: redirect.body, timeout: timeout, trace: trace, redirects: redirects,
            visited: visited + [next])
        return response.body.collect(upTo: HTTPClient.redirectBodyLimit).map { _ in () }.catchAndReturn(())
            .asObservable().flatMap { Single(raw: following) }
    }
}

/// Observes one exchange of a redirect chain: passes its response on, or
/// subscribes the next hop and passes that one's outcome on.
private final class HTTPSendSink<Observer: ObserverType>: Sink<Observer>, HTTPExchangeObserver, @unchecked Sendable
where Observer.Element == HTTPClientResponse {
    private let send: HTTPSend
    /// The next hop's subscription, once a redirect is followed (a no-op
    /// before, `Disposables.take`); `disposed` once this sink is, so that a
    /// hop subscribed meanwhile is disposed.
    private let hop = Mutex<(subscription: Disposable, disposed: Bool)>((Disposables.create(), false))

    init(send: HTTPSend, observer: Observer, cancel: SinkDisposer) {
        self.send = send
        super.init(observer: observer, cancel: cancel)
    }

    func exchangeFailed(_ error: any Error) {
        forwardError(error)
    }

    /// The exchange's response: passed on, or, when it is a redirect to
    /// follow, the next hop subscribed in its place. Taken directly, with
    /// no `Event` built (in this generic sink, an `Event` would look its
    /// metadata up in the runtime).
    func exchangeResponded(_ response: HTTPClientResponse) {
        let next: Observable<HTTPClientResponse>?
        do {
            next = try send.next(after: response)
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

    override func dispose() {
        let subscription = hop.withLock { hop -> Disposable in
            hop.disposed = true
            return Disposables.take(&hop.subscription)
        }
        subscription.dispose()
        super.dispose()
    }
}
