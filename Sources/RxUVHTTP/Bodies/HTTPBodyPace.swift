import RxCore
import RxUV

/// What a paced body (`HTTPPacedBody`) is written to, as far as its pace
/// goes: the loop the writer lives on, whether it takes another piece now,
/// and when that changes. An HTTP/1.1 connection's is its stream's
/// writability; an HTTP/2 stream's is its own send queue's.
package struct HTTPBodyPace: Sendable {
    /// The writer's loop: the body's Task runs there.
    package let loop: Loop
    /// Whether another piece may be written now. Loop thread.
    package let isWritable: @Sendable () -> Bool
    /// The writability's changes (`true` once another piece may be
    /// written), completing when the writer closes. Loop thread.
    package let writability: @Sendable () -> Observable<Bool>

    package init(loop: Loop, isWritable: @escaping @Sendable () -> Bool, writability: @escaping @Sendable () -> Observable<Bool>) {
        self.loop = loop
        self.isWritable = isWritable
        self.writability = writability
    }

    /// The pace of `stream`: writable while its write queue is at or below
    /// its high watermark (`isWritable`, `rx.writable`).
    package static func stream(_ stream: any ByteStream) -> HTTPBodyPace {
        HTTPBodyPace(loop: stream.loop, isWritable: { stream.isWritable }, writability: { stream.writability })
    }
}
