import RxUV

/// The generic keyspace commands for strings: RENAME, RENAMENX, COPY,
/// RANDOMKEY, TYPE, TOUCH, UNLINK, OBJECT and SCAN, with Redis's replies,
/// errors and keyspace events.
///
/// Bounds: RENAME, RENAMENX, COPY, TYPE and OBJECT are O(1) under the
/// lock (COPY shares the value's immutable bytes); TOUCH and UNLINK are
/// O(keys named); RANDOMKEY draws buckets until a live key, deleting the
/// expired keys it meets as Redis does; SCAN visits about COUNT home
/// buckets (at most 10 × COUNT) a call.
extension Keyspace {
    private static let noSuchKey = Reply.error("ERR no such key")

    /// RENAME / RENAMENX (`onlyIfAbsent`) key newkey: the value and its
    /// expiry move; an existing `newkey` is replaced (RENAME) or kept
    /// (RENAMENX answers 0).
    func rename(_ args: [ByteBuffer], onlyIfAbsent: Bool, now: Int64) -> Reply {
        let (source, target) = (args[1], args[2])
        return withStore { store in
            guard let entry = store.lookup(source, now: now) else { return Self.noSuchKey }
            if source == target { return onlyIfAbsent ? .integer(0) : .ok }
            if store.lookup(target, now: now) != nil {
                if onlyIfAbsent { return .integer(0) }
                store.remove(target)
            }
            store.set(target, entry.value, expiresAt: entry.expiresAt)
            store.remove(source)
            store.note(.generic, "rename_from", source)
            store.note(.generic, "rename_to", target)
            return onlyIfAbsent ? .integer(1) : .ok
        }
    }

    /// COPY source destination [DB 0] [REPLACE]: 1 when copied (with the
    /// expiry), 0 when there is no source or the destination exists.
    func copy(_ args: [ByteBuffer], now: Int64) -> Reply {
        var replace = false
        var index = 3
        while index < args.count {
            switch args[index].optionName() {
            case "REPLACE":
                replace = true
            case "DB" where index + 1 < args.count:
                guard let database = RedisInteger.parse(args[index + 1]) else { return .notAnInteger }
                guard Int32(exactly: database) != nil else {
                    return .error("ERR value is out of range, value must between -2147483648 and 2147483647")
                }
                guard database == 0 else { return .error("ERR DB index is out of range") }
                index += 1
            default:
                return .syntaxError
            }
            index += 1
        }
        let (source, target) = (args[1], args[2])
        if source == target { return .error("ERR source and destination objects are the same") }
        return withStore { store in
            guard let entry = store.lookup(source, now: now) else { return .integer(0) }
            if store.lookup(target, now: now) != nil {
                guard replace else { return .integer(0) }
                store.remove(target)
            }
            store.set(target, entry.value, expiresAt: entry.expiresAt)
            store.note(.generic, "copy_to", target)
            return .integer(1)
        }
    }

    /// RANDOMKEY: a live key drawn at random, or nil for an empty keyspace.
    func randomKey(now: Int64) -> Reply {
        return withStore { store in
            while store.entries.count > 0 {
                let bucket = Int.random(in: 0..<store.entries.bucketCount)
                guard let key = store.entries.key(inBucket: bucket) else { continue }
                let bytes = key.bytes
                if store.lookup(bytes, now: now) != nil { return .bulk(bytes) }
            }
            return .null
        }
    }

    /// TYPE key: `string`, or `none`.
    func type(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in .status(store.lookup(args[1], now: now) == nil ? "none" : "string") }
    }

    /// TOUCH key...: how many of the keys exist.
    func touch(_ args: [ByteBuffer], now: Int64) -> Reply {
        exists(args, now: now)
    }

    /// OBJECT ENCODING | REFCOUNT | FREQ key: how Redis would hold the
    /// value (`int` for an integer's canonical digits, `embstr` up to 44
    /// bytes, `raw` beyond), its reference count as Redis reports it (its
    /// shared integers 0–9999 as 2147483647), and FREQ's error (no LFU
    /// policy here). IDLETIME is not offered: access times are not kept.
    func object(_ args: [ByteBuffer], now: Int64) -> Reply {
        let subcommand = args[1].optionName()
        guard ["ENCODING", "REFCOUNT", "FREQ"].contains(subcommand) else {
            return .error("ERR unknown subcommand '", .argument(args[1], limit: 128), "'. Try OBJECT HELP.")
        }
        guard args.count == 3 else { return .wrongArity("object|\(subcommand.lowercased())") }
        return withStore { store in
            guard let value = store.lookup(args[2], now: now)?.value else { return .null }
            switch (subcommand, value) {
            case ("ENCODING", .integer): return .bulk(ByteBuffer(string: "int"))
            case ("ENCODING", _): return .bulk(ByteBuffer(string: value.count <= 44 ? "embstr" : "raw"))
            case ("REFCOUNT", .integer(_, let number)) where (0..<10_000).contains(number): return .integer(2_147_483_647)
            case ("REFCOUNT", _): return .integer(1)
            default:
                return .error(
                    "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."
                )
            }
        }
    }

    /// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]: the next
    /// cursor and a batch of live keys. The cursor walks home buckets in
    /// reversed-bit order, so a key present from the first call to the last
    /// is returned at least once, as Redis promises.
    func scan(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let cursor = Self.scanCursor(args[1]) else { return .error("ERR invalid cursor") }
        var count = 10
        var pattern: GlobPattern?
        var typeName: String?
        var index = 2
        while index < args.count {
            let hasValue = index + 1 < args.count
            switch args[index].optionName() {
            case "COUNT" where hasValue:
                guard let value = RedisInteger.parse(args[index + 1]) else { return .notAnInteger }
                guard value >= 1 else { return .syntaxError }
                count = Int(min(value, Int64(Int32.max)))
            case "MATCH" where hasValue:
                let text = args[index + 1]
                pattern = text.count == 1 && text[0] == UInt8(ascii: "*") ? nil : GlobPattern(text)
            case "TYPE" where hasValue:
                typeName = args[index + 1].optionName(limit: 64)
            default:
                return .syntaxError
            }
            index += 2
        }
        var (next, keys) = withStore { store -> (UInt64, [ByteBuffer]) in
            let buckets = store.entries.bucketCount
            guard buckets > 0, store.entries.count > 0 else { return (0, []) }
            let mask = UInt64(buckets - 1)
            var next = cursor
            var keys: [ByteBuffer] = []
            var visits = 0
            repeat {
                keys += store.entries.keys(homeBucket: Int(next & mask)).map { $0.key.bytes }
                // Redis's reversed-bit increment of the masked cursor.
                next |= ~mask
                next = (next.bitReversed &+ 1).bitReversed
                visits += 1
            } while next != 0 && visits < 10 * count && keys.count < count
            return (next, keys)
        }
        // Matched outside the lock; the live ones checked under it again.
        if let pattern { keys = keys.filter { pattern.matches($0) } }
        if let typeName, typeName != "STRING" { keys = [] }
        keys = withStore { store in keys.filter { store.lookup($0, now: now) != nil } }
        return .array([.bulk(ByteBuffer(string: String(next))), .array(keys.map { .bulk($0) })])
    }

    /// A SCAN cursor as C's `strtoul` reads it (up to a NUL): optional `+`
    /// or `-` (a negative one wraps around), decimal digits, nothing after
    /// them, no leading space, no overflow; an empty one is 0.
    private static func scanCursor(_ text: ByteBuffer) -> UInt64? {
        var bytes = Array(text.prefix { $0 != 0 })
        let empty = bytes.isEmpty
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        guard !bytes.isEmpty else { return empty ? 0 : nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return negative ? 0 &- value : value
    }
}

extension UInt64 {
    /// The bits in reverse order (bit 0 becomes bit 63).
    var bitReversed: UInt64 {
        var value = self
        var reversed: UInt64 = 0
        for _ in 0..<64 {
            reversed = reversed << 1 | value & 1
            value >>= 1
        }
        return reversed
    }
}
