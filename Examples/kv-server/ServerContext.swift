import RxUV
import Synchronization

/// What every session shares: the keyspace, pub/sub, the limits and the
/// counters INFO reports.
final class ServerContext: Sendable {
    let keyspace: Keyspace
    let pubSub: PubSub
    let limits: RESPLimits
    let maxClients: Int
    /// A connection with more reply bytes than this waiting in its write
    /// queue (a client that pipelines and never reads) is closed.
    let outputLimit = 256 * 1024 * 1024
    /// A subscriber with more message bytes than this waiting is closed
    /// (Redis's `client-output-buffer-limit pubsub 32mb`).
    let pubSubOutputLimit: Int
    /// Replies are written when a read's commands are done, or sooner once
    /// this many bytes wait.
    let replyBatchLimit = 64 * 1024
    /// The TCP port, for INFO (0 with only a Unix socket).
    let port: Atomic<Int> = Atomic(0)
    /// When the server started, on the monotonic clock (INFO's uptime).
    let startedNanoseconds = Loop.monotonicNanoseconds

    private let clients = Atomic<Int>(0)
    private let connectionsReceived = Atomic<Int>(0)
    private let nextID = Atomic<Int>(0)

    /// What `INFO commandstats` reads: the metrics backend kv-server
    /// bootstrapped, when it did.
    let commandStats: CommandStats?

    init(limits: RESPLimits, maxClients: Int, pubSubOutputLimit: Int, commandStats: CommandStats? = nil) {
        self.limits = limits
        self.maxClients = maxClients
        self.pubSubOutputLimit = pubSubOutputLimit
        self.commandStats = commandStats
        pubSub = PubSub()
        keyspace = Keyspace(pubSub: pubSub)
    }

    func newSessionID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).newValue
    }

    var clientCount: Int { clients.load(ordering: .relaxed) }
    var connectionsReceivedCount: Int { connectionsReceived.load(ordering: .relaxed) }

    func clientConnected() {
        clients.wrappingAdd(1, ordering: .relaxed)
        connectionsReceived.wrappingAdd(1, ordering: .relaxed)
    }

    func clientDisconnected() {
        clients.wrappingSubtract(1, ordering: .relaxed)
    }
}
