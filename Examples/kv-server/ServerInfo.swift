import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// INFO [section...]: Server, Clients, Memory, Stats, Replication, CPU and
/// Keyspace by default (`default`, or no argument), Commandstats as well
/// with `all` or `everything` or by name, in Redis's order and
/// `field:value` format; each section once however often it is asked for.
///
/// What the values are here: `used_memory` is the process's resident
/// anonymous memory (`RssAnon` in `/proc/self/status`: the heap, where the
/// keyspace lives, and the threads' stacks), where Redis reports its
/// allocator's count; `used_memory_rss` the whole resident set (`VmRSS`),
/// `used_memory_peak_rss` its peak (`VmHWM`); there is no
/// `maxmemory`, so it is 0 and the policy `noeviction`. CPU is the
/// process's and its children's user and system time (`getrusage`).
/// Replication has no meaning for a server that neither replicates nor is
/// replicated: it reports `role:master` with no replicas, offset 0, no
/// backlog, and a replication ID drawn at start as Redis draws one.
enum ServerInfo {
    private static let replicationID: String = {
        var generator = SystemRandomNumberGenerator()
        return String((0..<40).map { _ in Array("0123456789abcdef")[Int(generator.next() % 16)] })
    }()

    private static let defaultSections = ["server", "clients", "memory", "stats", "replication", "cpu", "keyspace"]
    private static let allSections = ["server", "clients", "memory", "stats", "replication", "cpu", "commandstats", "keyspace"]

    static func reply(_ args: [ByteBuffer], server: ServerContext) -> Reply {
        var wanted = Set<String>()
        for argument in args.dropFirst() {
            let name = argument.string.lowercased()
            switch name {
            case "all", "everything": wanted.formUnion(allSections)
            case "default": wanted.formUnion(defaultSections)
            default: wanted.insert(name)
            }
        }
        if args.count == 1 { wanted.formUnion(defaultSections) }
        var sections: [String] = []
        for name in allSections where wanted.contains(name) {
            if let text = section(name, server: server) { sections.append(text) }
        }
        return .bulk(ByteBuffer(string: sections.joined(separator: "\r\n")))
    }

    private static func section(_ name: String, server: ServerContext) -> String? {
        let lines: [String]
        switch name {
        case "server":
            let uptime = (Loop.monotonicNanoseconds - server.startedNanoseconds) / 1_000_000_000
            lines = [
                "# Server", "redis_version:7.0.0", "kv_server:rxuv", "redis_mode:standalone", "os:Linux", "arch_bits:64",
                "process_id:\(getpid())", "tcp_port:\(server.port.load(ordering: .relaxed))",
                "uptime_in_seconds:\(uptime)", "uptime_in_days:\(uptime / 86_400)",
            ]
        case "clients":
            lines = ["# Clients", "connected_clients:\(server.clientCount)", "maxclients:\(server.maxClients)"]
        case "memory":
            let status = processStatus()
            let used = status["RssAnon"] ?? 0
            let resident = status["VmRSS"] ?? 0
            lines = [
                "# Memory", "used_memory:\(used)", "used_memory_human:\(human(used))",
                "used_memory_rss:\(resident)", "used_memory_rss_human:\(human(resident))",
                "maxmemory:0", "maxmemory_human:0B", "maxmemory_policy:noeviction",
                "mem_fragmentation_ratio:\(decimal(used > 0 ? Double(resident) / Double(used) : 0))", "mem_allocator:libc",
                "used_memory_peak_rss:\(status["VmHWM"] ?? 0)",
            ]
        case "stats":
            let (channels, patterns) = server.pubSub.counts
            lines = [
                "# Stats", "total_connections_received:\(server.connectionsReceivedCount)",
                "pubsub_channels:\(channels)", "pubsub_patterns:\(patterns)",
            ]
        case "replication":
            lines = [
                "# Replication", "role:master", "connected_slaves:0", "master_failover_state:no-failover",
                "master_replid:\(replicationID)", "master_replid2:" + String(repeating: "0", count: 40),
                "master_repl_offset:0", "second_repl_offset:-1", "repl_backlog_active:0", "repl_backlog_size:0",
                "repl_backlog_first_byte_offset:0", "repl_backlog_histlen:0",
            ]
        case "cpu":
            var own = rusage()
            var children = rusage()
            getrusage(RUSAGE_SELF.rawValue, &own)
            getrusage(RUSAGE_CHILDREN.rawValue, &children)
            lines = [
                "# CPU", "used_cpu_sys:\(seconds(own.ru_stime))", "used_cpu_user:\(seconds(own.ru_utime))",
                "used_cpu_sys_children:\(seconds(children.ru_stime))", "used_cpu_user_children:\(seconds(children.ru_utime))",
            ]
        case "commandstats":
            return server.commandStats?.section
        case "keyspace":
            let (keys, expiring) = server.keyspace.counts
            lines = ["# Keyspace"] + (keys > 0 ? ["db0:keys=\(keys),expires=\(expiring),avg_ttl=0"] : [])
        default:
            return nil
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `/proc/self/status`'s sizes (`VmRSS`, `RssAnon`, `VmHWM`, …) in
    /// bytes, by name.
    private static func processStatus() -> [String: Int] {
        let file = open("/proc/self/status", O_RDONLY)
        guard file >= 0 else { return [:] }
        defer { close(file) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(file, &chunk, chunk.count)
            guard count > 0 else { break }
            text += chunk[..<count]
        }
        var sizes: [String: Int] = [:]
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(whereSeparator: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            guard parts.count == 3, parts[2].elementsEqual("kB".utf8), let kilobytes = Int(String(decoding: parts[1], as: UTF8.self)) else {
                continue
            }
            sizes[String(decoding: parts[0], as: UTF8.self)] = kilobytes * 1024
        }
        return sizes
    }

    /// `%.6f` seconds of a `timeval`, as Redis prints CPU time.
    private static func seconds(_ time: timeval) -> String {
        let micros = Int(time.tv_usec)
        let fraction = String(micros)
        return "\(time.tv_sec)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Redis's `bytesToHuman`: bytes, or K, M, G with two decimals.
    private static func human(_ bytes: Int) -> String {
        let units: [(Double, String)] = [(0x1p40, "T"), (0x1p30, "G"), (0x1p20, "M"), (0x1p10, "K")]
        for (size, suffix) in units where Double(bytes) >= size {
            return decimal(Double(bytes) / size) + suffix
        }
        return "\(bytes)B"
    }

    /// `value` with two decimals.
    private static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
