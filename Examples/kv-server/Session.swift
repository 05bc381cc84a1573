import ExampleSupport
import RxCore
import RxUV
import Synchronization

/// One client connection: reads commands, runs them in order, writes the
/// replies of each read in one batch, and keeps the client's pub/sub
/// subscriptions.
///
/// Everything but `push` runs on the connection's loop thread; what changes
/// there is one `LoopBound<State>`, so every access is checked to be on that
/// thread (in debug builds). `push` reaches only `mailbox`, behind its lock.
final class Session: Sendable {
    let id: Int
    let connection: any ByteStream
    let loop: Loop
    let server: ServerContext

    /// CLIENT REPLY's modes: `skipNext` silences the command after the
    /// one that set it, which runs in `skipping`.
    enum ReplyMode {
        case on, off, skipNext, skipping
    }

    /// What changes, on the loop thread. Read a field into a local before
    /// calling out (a call made while `state.value` is being read copies the
    /// whole state); change a field in place through `state.value.field`.
    private struct State {
        /// The server's drain, until `started` subscribes to it.
        var quiesce: Observable<Void>?
        /// The server's drain, passed on to `finished`, while serving.
        var draining: Disposable?
        var replies = ReplyBuffer()
        /// The channels and patterns this client is subscribed to, in the
        /// order it subscribed (UNSUBSCRIBE without arguments answers in
        /// that order).
        var channels: [ByteBuffer] = []
        var patterns: [ByteBuffer] = []
        /// QUIT or a protocol error: reply to what came before, then close.
        var closing = false
        /// `true` while the connection is unwritable: more than its high
        /// watermark of replies wait for a client that pipelines and does
        /// not read. The rest of the read's commands wait in `held`, and
        /// reading is paused (the stream's read gate), until the replies
        /// drain to the low watermark; so a connection holds at most its
        /// high watermark of replies, one batch and one read's commands,
        /// whatever the commands' replies weigh.
        var holding = false
        var held: [RESPFrame] = []
        /// `connection.rx.writable`'s subscription, while the connection is
        /// unwritable: made when a write leaves it so (most connections
        /// never are, and pay for no subscription), let go when it drains.
        var writability: Disposable?
        var replyMode = ReplyMode.on
        /// Error replies queued so far.
        var errorReplies = 0
        /// When the running command started, in `Keyspace.now()`
        /// milliseconds.
        var commandTime: Int64 = 0
    }

    private let state: LoopBound<State>

    /// Signals once the last reply is written, or when the server drains:
    /// reading ends (kept for a late subscriber, so a client refused at
    /// once is closed at once).
    private let finished = AsyncSubject<Void>()

    private struct Mailbox {
        var messages: [ByteBuffer] = []
        var bytes = 0
        var overflowed = false
    }
    /// Pub/sub messages on their way from other loops (or this one).
    private let mailbox = Mutex(Mailbox())

    /// A session for `connection`, on `loop`'s thread, that stops reading
    /// when `quiesce` (the server's drain) emits.
    init(id: Int, connection: any ByteStream, loop: Loop, server: ServerContext, quiesce: Observable<Void>) {
        self.id = id
        self.connection = connection
        self.loop = loop
        self.server = server
        // Handed to the loop thread with the state: an Observable is an
        // immutable description (`ServedConnection` hands it over the same
        // way). Kept there, `started` reaches it without a closure that
        // holds it beside `self`.
        nonisolated(unsafe) let initial = State(quiesce: quiesce)
        self.state = LoopBound(initial, loop: loop)
    }

    /// The channels this client is subscribed to, in the order it
    /// subscribed. Loop thread.
    var channels: [ByteBuffer] { state.value.channels }
    /// The patterns this client is subscribed to, in the order it
    /// subscribed. Loop thread.
    var patterns: [ByteBuffer] { state.value.patterns }

    var subscriptionCount: Int {
        let channels = state.value.channels.count
        return channels + state.value.patterns.count
    }

    /// The connection's life: read, decode, run, reply, until the client
    /// leaves, QUITs, breaks the protocol or the server drains (`quiesce`).
    /// Completes when reading ends; the replies written by then are flushed
    /// before the connection closes.
    func serve() -> Completable {
        connection.receivedData
            .take(until: finished)
            .do(afterNext: { _ in self.flush() })
            .decodeFrames(RESPDecoder(limits: server.limits))
            .do(onNext: { frame in self.handle(frame) })
            .ignoreElements()
            .asCompletable()
            .catch { _ in .empty() } // a reset is a client leaving like any other
            .do(onSubscribe: { self.started() }, onDispose: { self.ended() })
    }

    private func started() {
        // One subscription to the drain, passed on, rather than a merge of
        // it with `finished` per connection. Released in `ended()`.
        let quiesce = state.value.quiesce
        state.value.quiesce = nil
        let draining = quiesce?.subscribe(onNext: { self.finish() })
        state.value.draining = draining
        server.clientConnected()
        if server.clientCount > server.maxClients {
            reply(.error("ERR max number of clients reached"))
            state.value.closing = true
            flush()
        }
    }

    /// Ends reading: the chain completes, and the connection closes after
    /// the replies written.
    private func finish() {
        finished.onNext(())
        finished.onCompleted()
    }

    private func ended() {
        let draining = state.value.draining
        state.value.draining = nil
        draining?.dispose()
        let writability = state.value.writability
        state.value.writability = nil
        writability?.dispose()
        state.value.held = []
        let channels = state.value.channels
        let patterns = state.value.patterns
        state.value.channels = []
        state.value.patterns = []
        for channel in channels { server.pubSub.unsubscribe(self, channel: channel) }
        for pattern in patterns { server.pubSub.unsubscribe(self, pattern: pattern) }
        server.clientDisconnected()
    }

    private func handle(_ frame: RESPFrame) {
        guard !state.value.holding else {
            state.value.held.append(frame)
            return
        }
        run(frame)
    }

    /// After a write: a connection left unwritable holds the commands that
    /// follow, and its writability is watched until it drains.
    private func holdIfUnwritable() {
        guard !state.value.holding, !connection.isWritable, !connection.isClosed else { return }
        state.value.holding = true
        guard state.value.writability == nil else { return }
        // Released when the connection drains, or in `ended()`.
        let writability = connection.writability.subscribe(onNext: { writable in self.writabilityChanged(writable) })
        state.value.writability = writability
    }

    /// Runs the held commands when the connection turns writable, until
    /// their replies make it unwritable again; stops watching once it
    /// stays writable.
    private func writabilityChanged(_ writable: Bool) {
        guard writable, state.value.holding else { return }
        state.value.holding = false
        var index = 0
        while index < state.value.held.count, !state.value.holding {
            let frame = state.value.held[index]
            run(frame)
            index += 1
        }
        state.value.held.removeFirst(index)
        let holding = state.value.holding || !state.value.held.isEmpty
        state.value.holding = holding
        flush()
        if !holding {
            let writability = state.value.writability
            state.value.writability = nil
            writability?.dispose()
        }
    }

    private func run(_ frame: RESPFrame) {
        guard !state.value.closing else { return }
        switch frame {
        case .command(let arguments):
            Commands.run(arguments, in: self)
            commandDone()
        case .protocolError(let message):
            reply(.error("ERR Protocol error: ", .raw(message)))
            state.value.closing = true
        }
        if state.value.replies.byteCount >= server.replyBatchLimit { flush() }
    }

    /// Queues a reply; it is written with the others of this read. Under
    /// CLIENT REPLY OFF or SKIP it is dropped, unless `always` (pub/sub
    /// confirmations, which Redis sends whatever CLIENT REPLY says).
    func reply(_ reply: Reply, always: Bool = false) {
        if case .errorLine = reply {
            state.value.errorReplies &+= 1
        }
        guard always || state.value.replyMode == .on else { return }
        state.value.replies.append(reply)
    }

    /// CLIENT REPLY ON, OFF or SKIP (ignored while OFF, as Redis does).
    func replies(_ mode: ReplyMode) {
        if mode == .skipNext, state.value.replyMode == .off { return }
        state.value.replyMode = mode
    }

    /// After each command: a SKIP set by it silences the next one; the one
    /// silenced by it is done.
    func commandDone() {
        switch state.value.replyMode {
        case .skipNext: state.value.replyMode = .skipping
        case .skipping: state.value.replyMode = .on
        case .on, .off: break
        }
    }

    /// Error replies queued so far: how a command that failed is told from
    /// one that succeeded (`kv_commands_failed`). Loop thread.
    var errorReplies: Int { state.value.errorReplies }

    /// When the running command started, in `Keyspace.now()` milliseconds:
    /// the time its keyspace operations judge expiry by. Loop thread.
    var commandTime: Int64 {
        get { state.value.commandTime }
        set { state.value.commandTime = newValue }
    }

    /// After this command's reply, stop reading and close the connection.
    func closeAfterReply() {
        state.value.closing = true
    }

    /// Writes the replies queued so far, as one (vectored) write. After QUIT
    /// or a protocol error, this is the last write: reading ends, and the
    /// connection closes once it is flushed.
    private func flush() {
        if !state.value.replies.isEmpty {
            let replies = state.value.replies.take()
            write(replies)
            if connection.writeQueueSize > server.outputLimit {
                Console.error("kv-server: client \(id) is not reading its replies (more than \(server.outputLimit) bytes queued); closing it")
                connection.close()
            }
        }
        if state.value.closing {
            finish()
        }
    }

    private func write(_ buffers: [ByteBuffer]) {
        // A write fails only when the connection is gone; reading then ends too.
        _ = connection.write(buffers).subscribe(onCompleted: {}, onError: { _ in })
        holdIfUnwritable()
    }

    // MARK: Pub/sub

    func subscribe(channel: ByteBuffer) {
        if !state.value.channels.contains(channel) {
            state.value.channels.append(ByteBuffer(channel))
            server.pubSub.subscribe(self, channel: channel)
        }
    }

    func unsubscribe(channel: ByteBuffer) -> Bool {
        guard let index = state.value.channels.firstIndex(of: channel) else { return false }
        state.value.channels.remove(at: index)
        server.pubSub.unsubscribe(self, channel: channel)
        return true
    }

    func subscribe(pattern: ByteBuffer) {
        if !state.value.patterns.contains(pattern) {
            state.value.patterns.append(ByteBuffer(pattern))
            server.pubSub.subscribe(self, pattern: pattern)
        }
    }

    func unsubscribe(pattern: ByteBuffer) -> Bool {
        guard let index = state.value.patterns.firstIndex(of: pattern) else { return false }
        state.value.patterns.remove(at: index)
        server.pubSub.unsubscribe(self, pattern: pattern)
        return true
    }

    /// Hands an encoded pub/sub message to this client, from any thread.
    /// Messages that arrive together are written together, on the loop
    /// thread. A client whose messages pile up past the pub/sub output
    /// limit (it does not read) is disconnected, as Redis's
    /// `client-output-buffer-limit pubsub` does.
    func push(_ message: ByteBuffer) {
        let wake = mailbox.withLock { box -> Bool in
            guard !box.overflowed else { return false }
            box.messages.append(message)
            box.bytes += message.count
            if box.bytes > server.pubSubOutputLimit { box.overflowed = true }
            return box.messages.count == 1
        }
        if wake {
            loop.execute { [self] in deliverMail() }
        }
    }

    private func deliverMail() {
        let (messages, overflowed) = mailbox.withLock { box in
            defer {
                box.messages = []
                box.bytes = 0
            }
            return (box.messages, box.overflowed)
        }
        if overflowed || connection.writeQueueSize > server.pubSubOutputLimit {
            Console.error("kv-server: subscriber \(id) is not reading (pub/sub output limit of \(server.pubSubOutputLimit) bytes); closing it")
            connection.close()
            return
        }
        if !messages.isEmpty { write(messages) }
    }
}
