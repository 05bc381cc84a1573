import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// INFO: a short Server, Clients, Stats and Keyspace report in Redis's
/// `field:value` format; Commandstats on request (`INFO commandstats`,
/// `INFO all`), as Redis does.
enum ServerInfo {
    static func reply(_ args: [ByteBuffer], server: ServerContext) -> Reply {
        let wanted = Set(args.dropFirst().map { $0.string.lowercased() })
        let all = wanted.isEmpty || wanted.contains("all") || wanted.contains("everything") || wanted.contains("default")
        var sections: [String] = []
        if all || wanted.contains("server") {
            let uptime = (Keyspace.now() - server.started) / 1000
            let lines = [
                "# Server", "redis_version:7.0.0", "kv_server:rxuv", "redis_mode:standalone", "os:Linux", "arch_bits:64",
                "process_id:\(getpid())", "tcp_port:\(server.port.load(ordering: .relaxed))",
                "uptime_in_seconds:\(uptime)", "uptime_in_days:\(uptime / 86_400)",
            ]
            sections.append(lines.joined(separator: "\r\n") + "\r\n")
        }
        if all || wanted.contains("clients") {
            sections.append("# Clients\r\nconnected_clients:\(server.clientCount)\r\nmaxclients:\(server.maxClients)\r\n")
        }
        if all || wanted.contains("stats") {
            let (channels, patterns) = server.pubSub.counts
            sections.append(
                "# Stats\r\ntotal_connections_received:\(server.connectionsReceivedCount)\r\npubsub_channels:\(channels)\r\npubsub_patterns:\(patterns)\r\n")
        }
        if wanted.contains("commandstats") || wanted.contains("all") || wanted.contains("everything"), let stats = server.commandStats {
            sections.append(stats.section)
        }
        if all || wanted.contains("keyspace") {
            let (keys, expiring) = server.keyspace.counts
            sections.append("# Keyspace\r\n" + (keys > 0 ? "db0:keys=\(keys),expires=\(expiring),avg_ttl=0\r\n" : ""))
        }
        return .bulk(ByteBuffer(string: sections.joined(separator: "\r\n")))
    }
}
