import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// The server and connection commands beyond the first set: TIME,
/// CONFIG GET / SET, FUNCTION FLUSH, PUBSUB's introspection and CLIENT
/// REPLY / ID, with Redis's replies and errors.
extension Commands {
    static let serverCommands: [Command] = [
        Command("time", arity: 1, flags: ["loading", "stale", "fast"]) { session, _ in
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            session.reply(.array([.bulk(RedisInteger.bytes(Int64(now.tv_sec))), .bulk(RedisInteger.bytes(Int64(now.tv_nsec / 1000)))]))
        },
        Command("config", arity: -2, flags: ["admin", "noscript", "loading", "stale"]) { session, args in
            session.reply(ServerConfig.reply(args, server: session.server))
        },
        // kv-server runs no scripts, so there is never a library to delete:
        // FLUSH does what it says (there is nothing left afterwards) and
        // answers OK, as Redis does with no library loaded. Redis's test
        // suite sends it before each block. Every other subcommand needs
        // scripting and is not offered.
        Command("function", arity: -2, flags: ["noscript"]) { session, args in
            guard args[1].optionName() == "FLUSH" else {
                return session.reply(.error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try FUNCTION HELP."))
            }
            guard args.count <= 3 else {
                return session.reply(
                    .error("ERR unknown subcommand or wrong number of arguments for '", .argument(args[1], limit: 128), "'. Try FUNCTION HELP."))
            }
            if args.count == 3, !["ASYNC", "SYNC"].contains(args[2].optionName()) {
                return session.reply(.error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option"))
            }
            session.reply(.ok)
        },
        Command("pubsub", arity: -2, flags: ["pubsub", "loading", "stale"]) { session, args in
            session.reply(pubsubIntrospection(args, pubSub: session.server.pubSub))
        },
        Command("client", arity: -2, flags: ["noscript", "loading", "stale"], subscribed: false) { session, args in
            clientCommand(args, session: session)
        },
    ]

    /// PUBSUB CHANNELS [pattern], NUMSUB [channel...], NUMPAT.
    private static func pubsubIntrospection(_ args: [ByteBuffer], pubSub: PubSub) -> Reply {
        let subcommand = args[1].optionName()
        switch subcommand {
        case "CHANNELS" where args.count <= 3:
            let pattern = args.count == 3 ? GlobPattern(args[2]) : nil
            return .array(pubSub.channels(matching: pattern).map { .bulk($0) })
        case "NUMSUB":
            let channels = Array(args.dropFirst(2))
            return .array(zip(channels, pubSub.subscriberCounts(channels)).flatMap { [Reply.bulk($0), .integer(Int64($1))] })
        case "NUMPAT" where args.count == 2:
            return .integer(Int64(pubSub.counts.patterns))
        case "NUMPAT":
            return .wrongArity("pubsub|numpat")
        case "CHANNELS":
            return .error("ERR unknown subcommand or wrong number of arguments for '", .argument(args[1], limit: 128), "'. Try PUBSUB HELP.")
        default:
            return .error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try PUBSUB HELP.")
        }
    }

    /// CLIENT REPLY ON | OFF | SKIP (whether this connection's replies are
    /// sent; pub/sub messages and confirmations always are) and CLIENT ID.
    private static func clientCommand(_ args: [ByteBuffer], session: Session) {
        switch args[1].optionName() {
        case "REPLY" where args.count == 3:
            switch args[2].optionName() {
            case "ON":
                session.replies(.on)
                session.reply(.ok)
            case "OFF": session.replies(.off)
            case "SKIP": session.replies(.skipNext)
            default: session.reply(.syntaxError)
            }
        case "REPLY":
            session.reply(.wrongArity("client|reply"))
        case "ID" where args.count == 2:
            session.reply(.integer(Int64(session.id)))
        case "ID":
            session.reply(.wrongArity("client|id"))
        default:
            session.reply(.error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try CLIENT HELP."))
        }
    }
}
