import RxUV

/// The string and key commands, with Redis's replies and error texts. Each
/// runs under the keyspace's lock, once.
extension Keyspace {
    /// The longest string APPEND may make (Redis's `proto-max-bulk-len`).
    static let maxStringLength = 512 * 1024 * 1024

    func get(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            store.lookup(args[1], now: now)?.value.reply ?? .null
        }
    }

    func getdel(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else { return .null }
            store.remove(args[1])
            return entry.value.reply
        }
    }

    func mget(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            .array(args.dropFirst().map { key in store.lookup(key, now: now)?.value.reply ?? .null })
        }
    }

    func mset(_ args: [ByteBuffer]) -> Reply {
        guard args.count % 2 == 1 else { return .wrongArity("mset") }
        withStore { store in
            for index in stride(from: 1, to: args.count, by: 2) {
                store.set(args[index], args[index + 1], expiresAt: 0)
            }
        }
        return .ok
    }

    /// SET key value [NX | XX] [GET] [EX seconds | PX milliseconds | KEEPTTL]
    func set(_ args: [ByteBuffer], now: Int64) -> Reply {
        var onlyIfAbsent = false
        var onlyIfPresent = false
        var returnOld = false
        var keepTTL = false
        var expiry: (amount: ByteBuffer, unit: Int64)?
        var index = 3
        while index < args.count {
            let option = args[index].string.uppercased()
            let hasNext = index + 1 < args.count
            switch option {
            case "NX" where !onlyIfPresent: onlyIfAbsent = true
            case "XX" where !onlyIfAbsent: onlyIfPresent = true
            case "GET": returnOld = true
            case "KEEPTTL" where expiry == nil: keepTTL = true
            case "EX" where !keepTTL && expiry?.unit != 1 && hasNext:
                expiry = (args[index + 1], 1000)
                index += 1
            case "PX" where !keepTTL && expiry?.unit != 1000 && hasNext:
                expiry = (args[index + 1], 1)
                index += 1
            default:
                return .syntaxError
            }
            index += 1
        }
        var expiresAt: Int64 = 0
        if let (amount, unit) = expiry {
            guard let value = RedisInteger.parse(amount) else { return .notAnInteger }
            guard value > 0, value <= Int64.max / unit, value * unit <= Int64.max - now else {
                return .invalidExpireTime("set")
            }
            expiresAt = now + value * unit
        }
        // The old entry matters only to these options; a plain SET replaces
        // without looking first (one hash of the key, not two).
        let needsOld = onlyIfAbsent || onlyIfPresent || returnOld || keepTTL
        return withStore { store in
            let old = needsOld ? store.lookup(args[1], now: now) : nil
            if (onlyIfAbsent && old != nil) || (onlyIfPresent && old == nil) {
                return returnOld ? old?.value.reply ?? .null : .null
            }
            store.set(args[1], args[2], expiresAt: keepTTL ? old?.expiresAt ?? 0 : expiresAt)
            return returnOld ? old?.value.reply ?? .null : .ok
        }
    }

    func del(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            var deleted: Int64 = 0
            for key in args.dropFirst() where store.lookup(key, now: now) != nil {
                store.remove(key)
                deleted += 1
            }
            return .integer(deleted)
        }
    }

    func exists(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            .integer(Int64(args.dropFirst().count { store.lookup($0, now: now) != nil }))
        }
    }

    /// INCR, DECR, INCRBY, DECRBY: `args[2]` is the amount when `amountIndex` says so.
    func incrementBy(_ args: [ByteBuffer], sign: Int64, amountGiven: Bool, now: Int64) -> Reply {
        var amount: Int64 = 1
        if amountGiven {
            guard let parsed = RedisInteger.parse(args[2]) else { return .notAnInteger }
            if sign < 0, parsed == .min { return .error("ERR decrement would overflow") }
            amount = parsed
        }
        amount *= sign
        return withStore { store in
            let index = store.liveIndex(of: args[1], now: now)
            var current: Int64 = 0
            if let index {
                guard let parsed = store.entries[slot: index].value.integer else { return .notAnInteger }
                current = parsed
            }
            let (result, overflow) = current.addingReportingOverflow(amount)
            if overflow { return .error("ERR increment or decrement would overflow") }
            if let index {
                store.replaceValue(at: index, with: StoredValue(result))
            } else {
                store.set(args[1], StoredValue(result), expiresAt: 0)
            }
            return .integer(result)
        }
    }

    func append(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else {
                store.set(args[1], args[2], expiresAt: 0)
                return .integer(Int64(args[2].count))
            }
            guard entry.value.count + args[2].count <= Self.maxStringLength else {
                return .error("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
            }
            let joined = entry.value.bytes + args[2]
            store.replaceValue(args[1], joined, compact: true)
            return .integer(Int64(joined.count))
        }
    }

    func strlen(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in .integer(Int64(store.lookup(args[1], now: now)?.value.count ?? 0)) }
    }

    /// EXPIRE / PEXPIRE key amount [NX | XX | GT | LT]; `unit` is 1000 for seconds.
    func expire(_ args: [ByteBuffer], unit: Int64, name: String, now: Int64) -> Reply {
        var (nx, xx, gt, lt) = (false, false, false, false)
        for option in args.dropFirst(3) {
            switch option.string.uppercased() {
            case "NX": nx = true
            case "XX": xx = true
            case "GT": gt = true
            case "LT": lt = true
            default: return .error("ERR Unsupported option ", .argument(option, limit: .max))
            }
        }
        if nx && (xx || gt || lt) {
            return .error("ERR NX and XX, GT or LT options at the same time are not compatible")
        }
        if gt && lt { return .error("ERR GT and LT options at the same time are not compatible") }
        guard var amount = RedisInteger.parse(args[2]) else { return .notAnInteger }
        if unit == 1000 {
            guard amount <= Int64.max / 1000, amount >= Int64.min / 1000 else { return .invalidExpireTime(name) }
            amount *= 1000
        }
        guard amount <= Int64.max - now else { return .invalidExpireTime(name) }
        let deadline = now + amount
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else { return .integer(0) }
            let current = entry.expiresAt
            if nx && current != 0 { return .integer(0) }
            if xx && current == 0 { return .integer(0) }
            if gt && (current == 0 || deadline <= current) { return .integer(0) }
            if lt && current != 0 && deadline >= current { return .integer(0) }
            if deadline <= now {
                store.remove(args[1])
            } else {
                store.setExpiry(args[1], deadline)
            }
            return .integer(1)
        }
    }

    /// TTL (`unit` 1000, rounded to the nearest second) and PTTL (`unit` 1).
    func ttl(_ args: [ByteBuffer], unit: Int64, now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else { return .integer(-2) }
            guard entry.expiresAt != 0 else { return .integer(-1) }
            let left = max(0, entry.expiresAt - now)
            return .integer(unit == 1 ? left : (left + 500) / 1000)
        }
    }

    func persist(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now), entry.expiresAt != 0 else { return .integer(0) }
            store.setExpiry(args[1], 0)
            return .integer(1)
        }
    }

    func keys(_ args: [ByteBuffer], now: Int64) -> Reply {
        let pattern = GlobPattern(args[1])
        let matchesAll = args[1].count == 1 && args[1][0] == UInt8(ascii: "*")
        return withStore { store in
            var found: [Reply] = []
            for (key, entry) in store.entries.elements where entry.expiresAt == 0 || entry.expiresAt > now {
                let bytes = key.bytes
                if matchesAll || pattern.matches(bytes) { found.append(.bulk(bytes)) }
            }
            return .array(found)
        }
    }

    func dbsize() -> Reply {
        .integer(Int64(counts.keys))
    }

    func flush(_ args: [ByteBuffer]) -> Reply {
        if args.count > 2 { return .syntaxError }
        if args.count == 2, !["ASYNC", "SYNC"].contains(args[1].string.uppercased()) { return .syntaxError }
        withStore { $0.removeAll() }
        return .ok
    }
}
