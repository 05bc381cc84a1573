import HTTPTypes

/// The methods of the requests sent on a connection whose responses have
/// not begun yet, oldest first: what `HTTPResponseDecoder` needs to know
/// of each request to frame its response (a response to `HEAD` has no
/// body, a 2xx to `CONNECT` opens a tunnel), since responses come in the
/// order of the requests (pipelining included).
///
/// A reference, so that the client that sends the requests and the
/// decoder that `decodeFrames` holds share it: the client appends a
/// method as it sends each request; the decoder takes it when the final
/// (non-1xx) response to it begins. Not thread-safe: used on the thread
/// that decodes (a connection's loop).
public final class HTTPPendingRequests {
    /// The methods, oldest from `start` on (taken ones are dropped in
    /// batches, so taking one is O(1)).
    private var methods: [HTTPRequest.Method] = []
    private var start = 0

    /// No request pending.
    public init() {}

    /// `methods`, oldest first, pending.
    public convenience init(_ methods: [HTTPRequest.Method]) {
        self.init()
        self.methods = methods
    }

    /// A request with `method` was sent: its response comes after those
    /// of the requests already pending.
    public func append(_ method: HTTPRequest.Method) {
        methods.append(method)
    }

    /// How many requests wait for their response to begin.
    public var count: Int { methods.count - start }

    /// The method of the oldest request pending, or `nil` for none.
    public var first: HTTPRequest.Method? {
        start < methods.count ? methods[start] : nil
    }

    /// Drops the oldest request pending: its final response began.
    func removeFirst() {
        start += 1
        if start == methods.count {
            methods.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 32, start * 2 >= methods.count {
            methods.removeFirst(start)
            start = 0
        }
    }
}
