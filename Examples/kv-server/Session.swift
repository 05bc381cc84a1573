import ExampleSupport
import RxCore
import RxUV
import Synchronization

/// One client connection: reads commands, runs them in order, writes the
/// replies of each read in one batch, and keeps the client's pub/sub
/// subscriptions.
///
/// Everything but `push` runs on the connection's loop thread.
// @unchecked Sendable: the loop-thread state is touched on the loop thread
// only; `mailbox` is behind its lock; the rest is immutable.
final class Session: @unchecked Sendable {
    let id: Int
    let connection: any ByteStream
    let loop: Loop
    let server: ServerContext

    // Unchecked exclusivity: this state is touched on the session's loop
    // thread only, one command at a time, and never through overlapping
    // accesses; the runtime's dynamic checks (a `swift_beginAccess` for
    // each reply appended) would only cost time on every command.
    @exclusivity(unchecked) private var replies = ReplyBuffer()
    /// The channels and patterns this client is subscribed to, in the order
    /// it subscribed (UNSUBSCRIBE without arguments answers in that order).
    @exclusivity(unchecked) private(set) var channels: [ByteBuffer] = []
    @exclusivity(unchecked) private(set) var patterns: [ByteBuffer] = []
    /// QUIT or a protocol error: reply to what came before, then close.
    @exclusivity(unchecked) private var closing = false
    /// `true` while the connection is unwritable: more than its high
    /// watermark of replies wait for a client that pipelines and does not
    /// read. The rest of the read's commands wait in `held`, and reading is
    /// paused (the stream's read gate), until the replies drain to the low
    /// watermark; so a connection holds at most its high watermark of
    /// replies, one batch and one read's commands, whatever the commands'
    /// replies weigh.
    @exclusivity(unchecked) private var holding = false
    @exclusivity(unchecked) private var held: [RESPFrame] = []
    /// `connection.rx.writable`'s subscription, while the connection is
    /// unwritable: made when a write leaves it so (most connections never
    /// are, and pay for no subscription), let go when it drains.
    @exclusivity(unchecked) private var writability: Disposable?
    /// Signals once the last reply is written, or when the server drains:
    /// reading ends (kept for a late subscriber, so a client refused at
    /// once is closed at once).
    private let finished = AsyncSubject<Void>()
    /// The server's drain, passed on to `finished`, while serving.
    @exclusivity(unchecked) private var draining: Disposable?

    private struct Mailbox {
        var messages: [ByteBuffer] = []
        var bytes = 0
        var overflowed = false
    }
    /// Pub/sub messages on their way from other loops (or this one).
    private let mailbox = Mutex(Mailbox())

    init(id: Int, connection: any ByteStream, loop: Loop, server: ServerContext) {
        self.id = id
        self.connection = connection
        self.loop = loop
        self.server = server
    }

    var subscriptionCount: Int { channels.count + patterns.count }

    /// The connection's life: read, decode, run, reply, until the client
    /// leaves, QUITs, breaks the protocol or the server drains (`quiesce`).
    /// Completes when reading ends; the replies written by then are flushed
    /// before the connection closes.
    func serve(quiesce: Observable<Void>) -> Completable {
        connection.receivedData
            .take(until: finished)
            .do(afterNext: { _ in self.flush() })
            .decodeFrames(RESPDecoder(limits: server.limits))
            .do(onNext: { frame in self.handle(frame) })
            .ignoreElements()
            .asCompletable()
            .catch { _ in .empty() } // a reset is a client leaving like any other
            .do(onSubscribe: { self.started(quiesce: quiesce) }, onDispose: { self.ended() })
    }

    private func started(quiesce: Observable<Void>) {
        // One subscription to the drain, passed on, rather than a merge of
        // it with `finished` per connection. Released in `ended()`.
        draining = quiesce.subscribe(onNext: { self.finish() })
        server.clientConnected()
        if server.clientCount > server.maxClients {
            reply(.error("ERR max number of clients reached"))
            closing = true
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
        draining?.dispose()
        draining = nil
        writability?.dispose()
        writability = nil
        held = []
        for channel in channels { server.pubSub.unsubscribe(self, channel: channel) }
        for pattern in patterns { server.pubSub.unsubscribe(self, pattern: pattern) }
        channels = []
        patterns = []
        server.clientDisconnected()
    }

    private func handle(_ frame: RESPFrame) {
        guard !holding else {
            held.append(frame)
            return
        }
        run(frame)
    }

    /// After a write: a connection left unwritable holds the commands that
    /// follow, and its writability is watched until it drains.
    private func holdIfUnwritable() {
        guard !holding, !connection.isWritable, !connection.isClosed else { return }
        holding = true
        guard writability == nil else { return }
        // Released when the connection drains, or in `ended()`.
        writability = connection.writability.subscribe(onNext: { writable in self.writabilityChanged(writable) })
    }

    /// Runs the held commands when the connection turns writable, until
    /// their replies make it unwritable again; stops watching once it
    /// stays writable.
    private func writabilityChanged(_ writable: Bool) {
        guard writable, holding else { return }
        holding = false
        var index = 0
        while index < held.count, !holding {
            run(held[index])
            index += 1
        }
        held.removeFirst(index)
        holding = holding || !held.isEmpty
        flush()
        if !holding {
            writability?.dispose()
            writability = nil
        }
    }

    private func run(_ frame: RESPFrame) {
        guard !closing else { return }
        switch frame {
        case .command(let arguments):
            Commands.run(arguments, in: self)
            commandDone()
        case .protocolError(let message):
            reply(.error("ERR Protocol error: ", .raw(message)))
            closing = true
        }
        if replies.byteCount >= server.replyBatchLimit { flush() }
    }

    /// Queues a reply; it is written with the others of this read. Under
    /// CLIENT REPLY OFF or SKIP it is dropped, unless `always` (pub/sub
    /// confirmations, which Redis sends whatever CLIENT REPLY says).
    func reply(_ reply: Reply, always: Bool = false) {
        if case .errorLine = reply {
            errorReplies &+= 1
        }
        guard always || replyMode == .on else { return }
        replies.append(reply)
    }

    /// CLIENT REPLY's modes: `skipNext` silences the command after the
    /// one that set it, which runs in `skipping`.
    enum ReplyMode {
        case on, off, skipNext, skipping
    }

    @exclusivity(unchecked) private var replyMode = ReplyMode.on

    /// CLIENT REPLY ON, OFF or SKIP (ignored while OFF, as Redis does).
    func replies(_ mode: ReplyMode) {
        if mode == .skipNext, replyMode == .off { return }
        replyMode = mode
    }

    /// After each command: a SKIP set by it silences the next one; the one
    /// silenced by it is done.
    func commandDone() {
        switch replyMode {
        case .skipNext: replyMode = .skipping
        case .skipping: replyMode = .on
        case .on, .off: break
        }
    }

    /// Error replies queued so far: how a command that failed is told from
    /// one that succeeded (`kv_commands_failed`).
    private(set) var errorReplies = 0
    /// When the running command started, in `Keyspace.now()` milliseconds:
    /// the time its keyspace operations judge expiry by.
    var commandTime: Int64 = 0

    /// After this command's reply, stop reading and close the connection.
    func closeAfterReply() {
        closing = true
    }

    /// Writes the replies queued so far, as one (vectored) write. After QUIT
    /// or a protocol error, this is the last write: reading ends, and the
    /// connection closes once it is flushed.
    private func flush() {
        if !replies.isEmpty {
            write(replies.take())
            if connection.writeQueueSize > server.outputLimit {
                Console.error("kv-server: client \(id) is not reading its replies (more than \(server.outputLimit) bytes queued); closing it")
                connection.close()
            }
        }
        if closing {
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
        if !channels.contains(channel) {
            channels.append(ByteBuffer(channel))
            server.pubSub.subscribe(self, channel: channel)
        }
    }

    func unsubscribe(channel: ByteBuffer) -> Bool {
        guard let index = channels.firstIndex(of: channel) else { return false }
        channels.remove(at: index)
        server.pubSub.unsubscribe(self, channel: channel)
        return true
    }

    func subscribe(pattern: ByteBuffer) {
        if !patterns.contains(pattern) {
            patterns.append(ByteBuffer(pattern))
            server.pubSub.subscribe(self, pattern: pattern)
        }
    }

    func unsubscribe(pattern: ByteBuffer) -> Bool {
        guard let index = patterns.firstIndex(of: pattern) else { return false }
        patterns.remove(at: index)
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
