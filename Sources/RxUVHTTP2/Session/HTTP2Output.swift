import RxCore
import RxUV
import RxUVHTTP

/// What an `HTTP2Output` tells the connection (a server's, a client's) it
/// writes for. Loop thread.
package protocol HTTP2OutputOwner: AnyObject, Sendable {
    /// Writes what the session has to send (`HTTP2Output.flush(_:)` with
    /// the session, while there is one): the stream turned writable again.
    func flush()
    /// A flush wrote everything the session had: the owner may end the
    /// connection if the session is over.
    func outputWritten(_ session: HTTP2Session)
    /// The session failed while producing its output: the connection
    /// ends.
    func outputFailed(_ error: HTTP2SessionError)
}

/// An HTTP/2 connection's one way out: what its session has to send,
/// written through the stream's one write primitive once per read batch
/// (a read's frames, and those its handling produced, go as one write
/// when the batch ends), at once outside a read, and never while the
/// stream is unwritable (its writability resumes the flush), so a peer
/// that does not read holds its own frames, not this side's memory.
///
/// Its state is in one `LoopBound`; every method runs on the loop thread.
package final class HTTP2Output: Sendable {
    private let stream: any ByteStream
    /// What every write reports to.
    private let watcher: HTTPWriteWatcher
    private let state: LoopBound<State>

    private struct State {
        /// A read batch is being handled: the output waits for its end.
        var handlingRead = false
        /// A flush is under way; one asked for meanwhile goes round again.
        var flushing = false
        var flushAgain = false
        /// The wait for the stream to turn writable again.
        var writable: Disposable?
    }

    /// The most the session's output gathered into one write.
    static let writeLimit = 256 * 1024

    /// The output of a session onto `stream`, each write reporting to
    /// `watcher`.
    package init(stream: any ByteStream, watcher: HTTPWriteWatcher) {
        self.stream = stream
        self.watcher = watcher
        self.state = LoopBound(State(), loop: stream.loop)
    }

    /// A read batch begins: the output waits for `readEnded()`.
    package func readBegan() {
        state.value.handlingRead = true
    }

    /// The read batch ended: its output may go.
    package func readEnded() {
        state.value.handlingRead = false
    }

    /// Writes what `session` has to send for `owner`, unless a read batch is being
    /// handled (its end flushes) or the stream is unwritable (its
    /// writability flushes); then tells the owner (`outputWritten`).
    /// Called again from within (a stream closed while its last frame is
    /// produced disposes work that may answer at once), it asks the flush
    /// under way to go round once more: nghttp2 produces its output one
    /// call at a time.
    package func flush(_ session: HTTP2Session, for owner: any HTTP2OutputOwner) {
        guard !state.value.handlingRead else { return }
        guard !state.value.flushing else {
            state.value.flushAgain = true
            return
        }
        state.value.flushing = true
        defer { state.value.flushing = false }
        repeat {
            state.value.flushAgain = false
            guard write(session, for: owner) else { return }
        } while state.value.flushAgain
        owner.outputWritten(session)
    }

    /// Writes the session's output while it has some and the stream takes
    /// it; `false` when the flush must stop (the stream is unwritable, or
    /// the session failed).
    private func write(_ session: HTTP2Session, for owner: any HTTP2OutputOwner) -> Bool {
        while session.wantsWrite {
            guard stream.isWritable else {
                awaitWritable(owner)
                return false
            }
            let output: ByteBuffer?
            do throws(HTTP2SessionError) {
                output = try session.pendingOutput(limit: Self.writeLimit)
            } catch {
                owner.outputFailed(error)
                return false
            }
            guard let output else { break }
            _ = stream.startWrite(.one(output), notifying: watcher)
        }
        return true
    }

    /// Flushes once the stream turns writable again.
    private func awaitWritable(_ owner: any HTTP2OutputOwner) {
        guard state.value.writable == nil else { return }
        let waiting = SingleAssignmentDisposable()
        state.value.writable = waiting
        waiting.setDisposable(
            stream.writability.filter { $0 }.take(1).subscribe(onNext: { [self] _ in
                state.value.writable = nil
                owner.flush()
            }))
    }

    /// The connection ends: no flush waits for writability any more.
    package func stop() {
        let writable = state.value.writable
        state.value.writable = nil
        writable?.dispose()
    }
}
