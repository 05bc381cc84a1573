import RxCore
import RxUV

/// A stream whose body an `HTTP2BodyWriter` fills (a server's response, a
/// client's request). Loop thread.
package protocol HTTP2BodySender: AnyObject, Sendable {
    var loop: Loop { get }
    /// The stream is open and its body still goes out.
    var isSendingBody: Bool { get }
    /// What waits to be framed.
    var outbound: HTTP2BodyQueue { get set }
    /// A streamed body's pace, when it has one (`HTTPBodyPace`).
    var pace: BehaviorSubject<Bool>? { get }
    /// Whether trailers follow the body (made by the delegate when its
    /// last bytes are framed).
    var hasTrailers: Bool { get }
    /// More of the body (or its end) waits in `outbound`: nghttp2 is to
    /// ask for it again.
    func bodyAppended()
    /// The body cannot go on (its source's error, a length that does not
    /// match): the stream is reset.
    func bodyFailed(_ error: any Error)
}

/// Hands a streamed body's buffers to its stream's queue and checks the
/// length it declared; holds a paced body's producer while the queue is
/// past `paceLimit`. Its events may come on any thread and enter the
/// stream's loop.
// @unchecked Sendable: `written` and the sender are touched on the loop
// thread only (every event enters the loop first).
package final class HTTP2BodyWriter<Sender: HTTP2BodySender>: ObserverType, @unchecked Sendable {
    private let sender: Sender
    private let length: Int?
    private var written = 0

    /// The stream's send queue is at or below this: a paced body may
    /// produce another piece.
    package static var paceLimit: Int {
        64 * 1024
    }

    package init(sender: Sender, length: Int?) {
        self.sender = sender
        self.length = length
    }

    package func on(_ event: Event<ByteBuffer>) {
        guard sender.loop.isOnLoopThread else {
            let sent = UncheckedSendable(event)
            sender.loop.enter { [self] in on(sent.value) }
            return
        }
        guard sender.isSendingBody else { return }
        switch event {
        case .next(let bytes):
            written += bytes.count
            if let length, written > length {
                sender.bodyFailed(HTTP2BodyLengthError(declared: length, sent: written))
                return
            }
            sender.outbound.append(bytes)
            if let pace = sender.pace, sender.outbound.queuedBytes > Self.paceLimit {
                pace.onNext(false)
            }
            sender.bodyAppended()
        case .completed:
            if let length, written != length {
                sender.bodyFailed(HTTP2BodyLengthError(declared: length, sent: written))
                return
            }
            sender.outbound.complete(trailers: sender.hasTrailers)
            sender.bodyAppended()
        case .error(let error):
            sender.bodyFailed(error)
        }
    }
}

/// A streamed body sent another count of bytes than the length it
/// declared: the stream was reset.
package struct HTTP2BodyLengthError: Error, CustomStringConvertible {
    package let declared: Int
    package let sent: Int

    package var description: String {
        "HTTP/2 body: \(sent) bytes sent for a declared length of \(declared); the stream was reset"
    }
}
