import RxCore

/// What an `HTTPHostPool` holds, on its loop's thread.
struct HTTPHostPoolState {
    /// Connections waiting for an exchange, the most recently used last
    /// (taken first: its socket is the likeliest to be alive).
    var idle: [HTTPClientConnection] = []
    /// The HTTP/2 connections, each carrying many exchanges; the one that
    /// takes new streams, if any, last.
    var multiplexed: [HTTP2ClientConnection] = []
    /// Whether the host's connections were found to speak HTTP/2; `nil`
    /// until the first connect of a host that may tells.
    var speaksHTTP2: Bool?
    /// Open connections (HTTP/1.1's, idle or carrying an exchange, and
    /// HTTP/2's).
    var open = 0
    /// Connects under way, and what cancels each.
    var connecting: [Int: Disposable] = [:]
    var nextConnectID = 0
    /// Requests waiting for a connection, oldest first from `waitingStart`.
    var waiting: [HTTPClientExchange?] = []
    var waitingStart = 0
    var waitingCount = 0
    /// No request is taken any more; the pool ends when its last
    /// connection does.
    var isShuttingDown = false

    /// Appends `exchange` to the queue (at its head for a retry).
    mutating func enqueue(_ exchange: HTTPClientExchange, first: Bool) {
        if first {
            if waitingStart > 0 {
                waitingStart -= 1
                waiting[waitingStart] = exchange
            } else {
                waiting.insert(exchange, at: 0)
            }
        } else {
            waiting.append(exchange)
        }
        waitingCount += 1
    }

    /// The oldest waiting request, taken out of the queue.
    mutating func dequeue() -> HTTPClientExchange? {
        while waitingStart < waiting.count {
            let exchange = waiting[waitingStart]
            waiting[waitingStart] = nil
            waitingStart += 1
            if let exchange {
                waitingCount -= 1
                compact()
                return exchange
            }
        }
        compact()
        return nil
    }

    /// Takes `exchange` out of the queue (disposed, timed out).
    mutating func remove(_ exchange: HTTPClientExchange) {
        guard let index = waiting[waitingStart...].firstIndex(where: { $0 === exchange }) else { return }
        waiting[index] = nil
        waitingCount -= 1
        compact()
    }

    private mutating func compact() {
        if waitingCount == 0 {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        } else if waitingStart >= 32, waitingStart * 2 >= waiting.count {
            waiting.removeFirst(waitingStart)
            waitingStart = 0
        }
    }
}
