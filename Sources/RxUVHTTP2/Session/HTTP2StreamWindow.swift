import RxUVHTTP

/// What one stream's receive window holds back (a server's request body, a
/// client's response body): nghttp2 keeps the window, which opens only as
/// this side gives DATA back (`HTTP2Session.consumeStream`); DATA that
/// arrives while nobody reads the body yet, or while its reader holds it,
/// is kept here and given back once the reader reads, so the peer sends no
/// more than the window ahead of the reading. Loop thread.
package struct HTTP2StreamWindow {
    /// The body's reader holds the window shut.
    package var isHeld = false
    /// DATA bytes received and not given back yet.
    private var unconsumed = 0

    package init() {}

    /// `count` bytes of the body's DATA arrived: how many to give back now
    /// (all of them once the body is read, `wanted`, and not held; else
    /// none, kept for `release()`).
    package mutating func received(_ count: Int, wanted: Bool) -> Int {
        guard isHeld || !wanted else { return count }
        unconsumed += count
        return 0
    }

    /// The reader reads again (or let the body go): what was kept, to
    /// give back now; 0 while held.
    package mutating func release() -> Int {
        guard !isHeld, unconsumed > 0 else { return 0 }
        defer { unconsumed = 0 }
        return unconsumed
    }
}

/// A stream whose body opens its window as it is read: its side of
/// `HTTPBodyConnection` (a hold, the first read) is the window's. Loop
/// thread.
package protocol HTTP2WindowedStream: HTTPBodyConnection {
    var window: HTTP2StreamWindow { get set }
    /// The window may open (the reader reads, or holds no more): the
    /// connection gives back what was kept (`HTTP2StreamWindow.release`).
    func windowMayOpen()
}

extension HTTP2WindowedStream {
    package func body(_ body: HTTPBodySource, holds held: Bool) {
        window.isHeld = held
        if !held { windowMayOpen() }
    }

    package func bodyWanted(_ body: HTTPBodySource) {
        windowMayOpen()
    }
}
