import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// One command: its name, its arity (Redis's rule: `n` means exactly `n`
/// arguments counting the name, `-n` at least `n`), whether a subscribed
/// client may call it, and what it does. A class: the table hands out a
/// reference per call, not a copy of every field.
final class Command: Sendable {
    let name: String
    let arity: Int
    let allowedWhileSubscribed: Bool
    let flags: [String]
    /// The first and last key argument and the step between keys (COMMAND).
    let keys: (first: Int, last: Int, step: Int)
    let run: @Sendable (Session, [ByteBuffer]) -> Void
    /// Its calls, rejections, failures and durations, through swift-metrics.
    let metrics: CommandMetrics

    init(
        _ name: String, arity: Int, flags: [String], keys: (Int, Int, Int) = (0, 0, 0),
        subscribed: Bool = false, run: @escaping @Sendable (Session, [ByteBuffer]) -> Void
    ) {
        self.name = name
        self.arity = arity
        self.flags = flags
        self.keys = keys
        self.allowedWhileSubscribed = subscribed
        self.run = run
        self.metrics = CommandMetrics(command: name)
    }

    func accepts(_ count: Int) -> Bool {
        arity >= 0 ? count == arity : count >= -arity
    }
}

/// A command's name as a table key: up to 15 bytes, ASCII letters folded
/// to lower case, packed in two words (no `String` is made to look a
/// command up). Longer names are no command's.
struct CommandName: Hashable {
    private let low: UInt64
    private let high: UInt64

    init?(_ bytes: ByteBuffer) {
        guard bytes.count <= 15 else { return nil }
        var words: (UInt64, UInt64) = (UInt64(bytes.count) << 56, 0)
        for (index, byte) in bytes.enumerated() {
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if index < 7 {
                words.0 |= UInt64(folded) << (8 * index)
            } else {
                words.1 |= UInt64(folded) << (8 * (index - 7))
            }
        }
        (low, high) = words
    }

    /// The name's 16 bytes mixed into one word (multiplicative hashing),
    /// for `CommandTable`.
    var mixed: UInt64 {
        (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
    }
}

/// The command table, and the way a command is looked up, checked and run
/// (in Redis's order: unknown command, arity, pub/sub context).
enum Commands {
    static func run(_ arguments: [ByteBuffer], in session: Session) {
        guard let name = CommandName(arguments[0]), let command = table[name] else {
            session.reply(unknownCommand(arguments))
            return
        }
        guard command.accepts(arguments.count) else {
            command.metrics.rejected.increment()
            session.reply(.wrongArity(command.name))
            return
        }
        if session.subscriptionCount > 0, !command.allowedWhileSubscribed {
            command.metrics.rejected.increment()
            session.reply(
                .error("ERR Can't execute '\(command.name)': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"))
            return
        }
        let errorsBefore = session.errorReplies
        let started = Loop.monotonicNanoseconds
        // The command's one reading of the clock, as Redis's command time
        // snapshot: what expiry is judged against while it runs.
        session.commandTime = Keyspace.unixMilliseconds(monotonic: started)
        command.run(session, arguments)
        command.metrics.duration.recordNanoseconds(Loop.monotonicNanoseconds - started)
        command.metrics.calls.increment()
        if session.errorReplies != errorsBefore {
            command.metrics.failed.increment()
        }
    }

    /// Redis's text: the name, then the first arguments (up to 128 bytes),
    /// each printed as Redis's `%.*s` prints it (up to a NUL), byte for byte.
    private static func unknownCommand(_ arguments: [ByteBuffer]) -> Reply {
        var listed: [UInt8] = []
        for argument in arguments.dropFirst() where listed.count < 128 {
            let room = 128 - listed.count
            listed.append(UInt8(ascii: "'"))
            listed.append(contentsOf: ErrorText.argument(argument, limit: room).bytes)
            listed.append(contentsOf: Array("' ".utf8))
        }
        return .error("ERR unknown command '", .argument(arguments[0], limit: 128), "', with args beginning with: ", .raw(listed))
    }

    static let table = CommandTable(all)

    static let readonly = ["readonly", "fast"]
    static let write = ["write", "denyoom"]

    static let all: [Command] = core + stringCommands + keyCommands + serverCommands

    private static let core: [Command] = [
        Command("ping", arity: -1, flags: ["fast"], subscribed: true) { session, args in
            if args.count > 2 { return session.reply(.wrongArity("ping")) }
            if session.subscriptionCount > 0 {
                session.reply(.array([.bulk(ByteBuffer(string: "pong")), .bulk(args.count == 2 ? args[1] : ByteBuffer())]))
            } else {
                session.reply(args.count == 2 ? .bulk(args[1]) : .status("PONG"))
            }
        },
        Command("hello", arity: -1, flags: ["fast", "noscript", "loading", "stale"]) { session, args in
            // RESP2 only: HELLO 3 gets Redis's answer for a version it does not speak.
            if args.count > 1 {
                guard let version = RedisInteger.parse(args[1]) else {
                    return session.reply(.error("ERR Protocol version is not an integer or out of range"))
                }
                guard version == 2 else { return session.reply(.error("NOPROTO unsupported protocol version")) }
            }
            session.reply(
                .array([
                    .bulk(ByteBuffer(string: "server")), .bulk(ByteBuffer(string: "redis")),
                    .bulk(ByteBuffer(string: "version")), .bulk(ByteBuffer(string: "7.0.0")),
                    .bulk(ByteBuffer(string: "proto")), .integer(2),
                    .bulk(ByteBuffer(string: "id")), .integer(Int64(session.id)),
                    .bulk(ByteBuffer(string: "mode")), .bulk(ByteBuffer(string: "standalone")),
                    .bulk(ByteBuffer(string: "role")), .bulk(ByteBuffer(string: "master")),
                    .bulk(ByteBuffer(string: "modules")), .array([]),
                ]))
        },
        Command("echo", arity: 2, flags: ["fast"]) { session, args in session.reply(.bulk(args[1])) },
        Command("quit", arity: -1, flags: ["fast"], subscribed: true) { session, _ in
            session.reply(.ok)
            session.closeAfterReply()
        },
        Command("select", arity: 2, flags: ["fast"]) { session, args in
            guard let index = RedisInteger.parse(args[1]) else { return session.reply(.notAnInteger) }
            guard Int32(exactly: index) != nil else {
                return session.reply(.error("ERR value is out of range, value must between -2147483648 and 2147483647"))
            }
            session.reply(index == 0 ? .ok : .error("ERR DB index is out of range"))
        },
        Command("dbsize", arity: 1, flags: readonly) { session, _ in session.reply(session.server.keyspace.dbsize()) },
        Command("flushdb", arity: -1, flags: ["write"]) { session, args in session.reply(session.server.keyspace.flush(args)) },
        Command("flushall", arity: -1, flags: ["write"]) { session, args in session.reply(session.server.keyspace.flush(args)) },
        Command("command", arity: -1, flags: ["loading", "stale"]) { session, args in session.reply(commandCommand(args)) },
        Command("info", arity: -1, flags: ["loading", "stale"]) { session, args in session.reply(ServerInfo.reply(args, server: session.server)) },

        Command("get", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in session.reply(session.server.keyspace.get(args, now: session.commandTime)) },
        Command("set", arity: -3, flags: write, keys: (1, 1, 1)) { session, args in session.reply(session.server.keyspace.set(args, now: session.commandTime)) },
        Command("getdel", arity: 2, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in session.reply(session.server.keyspace.getdel(args, now: session.commandTime)) },
        Command("mget", arity: -2, flags: readonly, keys: (1, -1, 1)) { session, args in session.reply(session.server.keyspace.mget(args, now: session.commandTime)) },
        Command("mset", arity: -3, flags: write, keys: (1, -1, 2)) { session, args in
            session.reply(session.server.keyspace.mset(args, now: session.commandTime))
        },
        Command("del", arity: -2, flags: ["write"], keys: (1, -1, 1)) { session, args in session.reply(session.server.keyspace.del(args, now: session.commandTime)) },
        Command("exists", arity: -2, flags: readonly, keys: (1, -1, 1)) { session, args in session.reply(session.server.keyspace.exists(args, now: session.commandTime)) },
        Command("incr", arity: 2, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.incrementBy(args, sign: 1, amountGiven: false, now: session.commandTime))
        },
        Command("decr", arity: 2, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.incrementBy(args, sign: -1, amountGiven: false, now: session.commandTime))
        },
        Command("incrby", arity: 3, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.incrementBy(args, sign: 1, amountGiven: true, now: session.commandTime))
        },
        Command("decrby", arity: 3, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.incrementBy(args, sign: -1, amountGiven: true, now: session.commandTime))
        },
        Command("append", arity: 3, flags: write, keys: (1, 1, 1)) { session, args in session.reply(session.server.keyspace.append(args, now: session.commandTime)) },
        Command("strlen", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in session.reply(session.server.keyspace.strlen(args, now: session.commandTime)) },
        Command("keys", arity: 2, flags: ["readonly"]) { session, args in session.reply(session.server.keyspace.keys(args, now: session.commandTime)) },

        Command("publish", arity: 3, flags: ["pubsub", "loading", "stale", "fast"]) { session, args in
            session.reply(.integer(Int64(session.server.pubSub.publish(channel: args[1], message: args[2]))))
        },
        Command("subscribe", arity: -2, flags: ["pubsub", "noscript", "loading", "stale"], subscribed: true) { session, args in
            for channel in args.dropFirst() {
                session.subscribe(channel: channel)
                session.reply(confirmation("subscribe", channel, session), always: true)
            }
        },
        Command("psubscribe", arity: -2, flags: ["pubsub", "noscript", "loading", "stale"], subscribed: true) { session, args in
            for pattern in args.dropFirst() {
                session.subscribe(pattern: pattern)
                session.reply(confirmation("psubscribe", pattern, session), always: true)
            }
        },
        Command("unsubscribe", arity: -1, flags: ["pubsub", "noscript", "loading", "stale"], subscribed: true) { session, args in
            unsubscribe(session, kind: "unsubscribe", named: Array(args.dropFirst()), current: session.channels) {
                session.unsubscribe(channel: $0)
            }
        },
        Command("punsubscribe", arity: -1, flags: ["pubsub", "noscript", "loading", "stale"], subscribed: true) { session, args in
            unsubscribe(session, kind: "punsubscribe", named: Array(args.dropFirst()), current: session.patterns) {
                session.unsubscribe(pattern: $0)
            }
        },
    ]

    /// `*3 subscribe <name> <count>`: one confirmation per channel or pattern.
    private static func confirmation(_ kind: String, _ name: ByteBuffer?, _ session: Session) -> Reply {
        .array([.bulk(ByteBuffer(string: kind)), name.map { .bulk($0) } ?? .null, .integer(Int64(session.subscriptionCount))])
    }

    /// UNSUBSCRIBE / PUNSUBSCRIBE: the named ones, or all; with none at all,
    /// one confirmation with a null name.
    private static func unsubscribe(
        _ session: Session, kind: String, named: [ByteBuffer], current: [ByteBuffer], remove: (ByteBuffer) -> Bool
    ) {
        let targets = named.isEmpty ? current : named
        if targets.isEmpty {
            session.reply(confirmation(kind, nil, session), always: true)
            return
        }
        for target in targets {
            _ = remove(target)
            session.reply(confirmation(kind, target, session), always: true)
        }
    }

    /// COMMAND, COMMAND COUNT, COMMAND INFO name..., COMMAND DOCS [name...].
    private static func commandCommand(_ args: [ByteBuffer]) -> Reply {
        guard args.count > 1 else { return .array(all.map(info)) }
        let subcommand = args[1].string.lowercased()
        switch subcommand {
        case "count" where args.count == 2:
            return .integer(Int64(all.count))
        case "info":
            return .array(args.dropFirst(2).map { name in CommandName(name).flatMap { table[$0] }.map(info) ?? .null })
        case "docs":
            // No documentation to offer: an empty map (clients fall back to their own help).
            return .array([])
        case "count":
            return .wrongArity("command|count")
        default:
            return .error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try COMMAND HELP.")
        }
    }

    /// A command's COMMAND entry: name, arity, flags, first key, last key,
    /// step, ACL categories, tips, key specs, subcommands.
    private static func info(_ command: Command) -> Reply {
        .array([
            .bulk(ByteBuffer(string: command.name)),
            .integer(Int64(command.arity)),
            .array(command.flags.map { .status($0) }),
            .integer(Int64(command.keys.first)),
            .integer(Int64(command.keys.last)),
            .integer(Int64(command.keys.step)),
            .array([]),
            .array([]),
            .array([]),
            .array([]),
        ])
    }

}
