import RxCore
import RxUV

/// Everything a stream's reader reads, kept for a test to look at: the
/// bytes in order and how reading ended. It reads from the moment it is
/// made (`receivedData`, so it is the stream's one reader) until the end of
/// input, an error, the stream's close, or `dispose()`.
///
/// Its state is the loop thread's (a `LoopBound`): look at it there, or on
/// the test's thread once the test ran the loop on it.
public final class StreamRecording: Sendable {
    /// How the reading ended, once it did.
    public enum Ending: Sendable {
        /// End of input, or the stream closed.
        case completed
        /// The read failed.
        case failed(any Error)
    }

    private struct State {
        var bytes: [UInt8] = []
        var reads = 0
        var ending: Ending?
    }

    private let state: LoopBound<State>
    private let subscription = SingleAssignmentDisposable()

    /// Starts reading `stream`.
    public init(of stream: any ByteStream) {
        let state = LoopBound(State(), loop: stream.loop)
        self.state = state
        subscription.setDisposable(
            stream.receivedData.subscribe(
                onNext: { bytes in
                    state.value.bytes += bytes
                    state.value.reads += 1
                },
                onError: { error in state.value.ending = .failed(error) },
                onCompleted: { state.value.ending = .completed }))
    }

    /// Stops reading (from any thread); the stream stays open.
    public func dispose() {
        subscription.dispose()
    }

    /// The bytes read so far.
    public var bytes: [UInt8] {
        state.value.bytes
    }

    /// The bytes read so far, as UTF-8 text.
    public var string: String {
        String(decoding: state.value.bytes, as: UTF8.self)
    }

    /// How many reads delivered them.
    public var reads: Int {
        state.value.reads
    }

    /// How the reading ended; `nil` while it goes on.
    public var ending: Ending? {
        state.value.ending
    }

    /// Whether reading ended with end of input (or the stream's close).
    public var completed: Bool {
        if case .completed = state.value.ending { return true }
        return false
    }

    /// The error reading ended with, if it failed.
    public var error: (any Error)? {
        if case .failed(let error) = state.value.ending { return error }
        return nil
    }
}
