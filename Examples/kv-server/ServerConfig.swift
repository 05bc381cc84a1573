import RxUV

/// CONFIG GET pattern... and CONFIG SET name value [name value ...] over
/// the settings kv-server has: `notify-keyspace-events` (which keyspace
/// events are published, settable) and, read only, `port`, `maxclients`
/// and `databases`. Names compare without case, patterns as Redis's
/// `nocase` globs; replies and errors are Redis's.
enum ServerConfig {
    private struct Setting: Sendable {
        let name: String
        let value: @Sendable (ServerContext) -> String
        /// Applies a new value; the reason it cannot, or `nil`.
        let set: (@Sendable (ServerContext, ByteBuffer) -> String?)?
    }

    private static let settings: [Setting] = [
        Setting(
            name: "notify-keyspace-events",
            value: { server in server.keyspace.withStore { $0.notifying }.setting },
            set: { server, value in
                guard let classes = KeyspaceEventClasses(setting: value) else {
                    return "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."
                }
                server.keyspace.withStore { $0.notifying = classes }
                return nil
            }),
        Setting(name: "port", value: { String($0.port.load(ordering: .relaxed)) }, set: nil),
        Setting(name: "maxclients", value: { String($0.maxClients) }, set: nil),
        Setting(name: "databases", value: { _ in "1" }, set: nil),
    ]

    static func reply(_ args: [ByteBuffer], server: ServerContext) -> Reply {
        switch args[1].optionName() {
        case "GET" where args.count >= 3:
            let patterns = args.dropFirst(2).map { GlobPattern($0, ignoringCase: true) }
            let chosen = settings.filter { setting in patterns.contains { $0.matches(ByteBuffer(string: setting.name)) } }
            return .array(chosen.flatMap { [Reply.bulk(ByteBuffer(string: $0.name)), .bulk(ByteBuffer(string: $0.value(server)))] })
        case "GET":
            return .wrongArity("config|get")
        case "SET" where args.count >= 4:
            return set(Array(args.dropFirst(2)), server: server)
        case "SET":
            return .wrongArity("config|set")
        default:
            return .error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try CONFIG HELP.")
        }
    }

    /// Every pair checked before any is applied, as Redis does.
    private static func set(_ pairs: [ByteBuffer], server: ServerContext) -> Reply {
        guard pairs.count % 2 == 0 else { return .syntaxError }
        var chosen: [(Setting, ByteBuffer, ByteBuffer)] = []
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let name = pairs[index]
            guard let setting = settings.first(where: { $0.name.uppercased() == name.optionName(limit: 64) && name.count == $0.name.utf8.count }) else {
                return .error("ERR Unknown option or number of arguments for CONFIG SET - '", .argument(name, limit: .max), "'")
            }
            if chosen.contains(where: { $0.0.name == setting.name }) { return failed(name, "duplicate parameter") }
            guard setting.set != nil else { return failed(name, "can't set immutable config") }
            chosen.append((setting, name, pairs[index + 1]))
        }
        for (setting, name, value) in chosen {
            if let problem = setting.set?(server, value) { return failed(name, problem) }
        }
        return .ok
    }

    private static func failed(_ name: ByteBuffer, _ reason: String) -> Reply {
        .error("ERR CONFIG SET failed (possibly related to argument '", .argument(name, limit: .max), "') - \(reason)")
    }
}
