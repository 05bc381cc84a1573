import RxCore
import RxUV

/// A body that an `AsyncSequence` produces, pulled at the pace of what it
/// is written to (`HTTPBodyPace`: a stream's write queue at or below its
/// high watermark, an HTTP/2 stream's send queue): the next piece is asked
/// for only while the writer is writable, else once its writability turns
/// `true` again. A producer faster than the
/// peer is held to the peer's pace, with at most a watermark of its bytes
/// queued: what a body streamed from another connection (a proxy) needs.
///
/// The same mechanism serves a server's response body
/// (`HTTPResponseBody.values`) and a client's request body: each becomes
/// an `Observable` of the pieces for the writer that already writes
/// streamed bodies.
package struct HTTPPacedBody: Sendable {
    /// The pieces for a writer, paced by it.
    private let make: @Sendable (HTTPBodyPace) -> Observable<ByteBuffer>

    /// A body of `sequence`'s pieces.
    package init<Values: AsyncSequence & SendableMetatype>(_ sequence: Values) where Values.Element == ByteBuffer, Values.AsyncIterator: SendableMetatype {
        // The sequence is iterated by one subscription's Task at a time (a
        // body is written once), as `AsyncSequence.asObservable` hands a
        // sequence to its Task.
        let sequence = UncheckedSendable(sequence)
        make = { pace in Self.observable(sequence.value, pacedBy: pace) }
    }

    /// The pieces as an `Observable` for a writer paced by `pace`: each
    /// subscription iterates the sequence in a Task on the writer's loop,
    /// emitting each piece, then completion or the sequence's error; it
    /// fails with `ENOTCONN` when the writer closes while it waits.
    /// Disposing cancels the Task.
    package func pieces(pacedBy pace: HTTPBodyPace) -> Observable<ByteBuffer> {
        make(pace)
    }

    private static func observable<Values: AsyncSequence & SendableMetatype>(
        _ sequence: Values, pacedBy pace: HTTPBodyPace
    ) -> Observable<ByteBuffer> where Values.Element == ByteBuffer, Values.AsyncIterator: SendableMetatype {
        Observable.create { observer in
            // The Task reports from the loop's thread, one event at a time,
            // as an Rx source may; neither the observer nor the sequence is
            // touched here again.
            let observer = UncheckedSendable(observer)
            let sequence = UncheckedSendable(sequence)
            let task = Task(executorPreference: pace.loop) {
                do {
                    for try await piece in sequence.value {
                        observer.value.onNext(piece)
                        if !pace.isWritable() {
                            // Writability completes when the writer closes.
                            let resumed = try await pace.writability().filter { $0 }.take(1).toArray().value
                            guard !resumed.isEmpty else { throw UVError(code: .notConnected, operation: "a paced body's write") }
                        }
                    }
                    observer.value.onCompleted()
                } catch {
                    if !Task.isCancelled { observer.value.onError(error) }
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
