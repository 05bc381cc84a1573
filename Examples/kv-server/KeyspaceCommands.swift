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
            store.note(.generic, "del", args[1])
            return entry.value.reply
        }
    }

    func mget(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            .array(args.dropFirst().map { key in store.lookup(key, now: now)?.value.reply ?? .null })
        }
    }

    /// MSET, and MSETNX (`onlyIfNoneExist`), which sets nothing when one
    /// of the keys exists.
    func mset(_ args: [ByteBuffer], onlyIfNoneExist: Bool = false, now: Int64) -> Reply {
        guard args.count % 2 == 1 else { return .wrongArity(onlyIfNoneExist ? "msetnx" : "mset") }
        return withStore { store in
            if onlyIfNoneExist {
                for index in stride(from: 1, to: args.count, by: 2) where store.lookup(args[index], now: now) != nil {
                    return .integer(0)
                }
            }
            for index in stride(from: 1, to: args.count, by: 2) {
                store.set(args[index], args[index + 1], expiresAt: 0)
                store.note(.string, "set", args[index])
            }
            return onlyIfNoneExist ? .integer(1) : .ok
        }
    }

    func del(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            var deleted: Int64 = 0
            for key in args.dropFirst() where store.lookup(key, now: now) != nil {
                store.remove(key)
                store.note(.generic, "del", key)
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
            store.note(.string, "incrby", args[1])
            return .integer(result)
        }
    }

    func append(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else {
                store.set(args[1], args[2], expiresAt: 0)
                store.note(.string, "append", args[1])
                return .integer(Int64(args[2].count))
            }
            guard entry.value.count + args[2].count <= Self.maxStringLength else {
                return .error("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
            }
            let joined = entry.value.bytes + args[2]
            store.replaceValue(args[1], joined, compact: true)
            store.note(.string, "append", args[1])
            return .integer(Int64(joined.count))
        }
    }

    func strlen(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in .integer(Int64(store.lookup(args[1], now: now)?.value.count ?? 0)) }
    }

    /// KEYS pattern: every live key that matches. O(keys × the match's
    /// bound) for the call, as in Redis, but the lock is held only to copy
    /// the live keys of 4,096 home buckets at a time (SCAN's walk) and the
    /// keys are matched after it is released, so the other loops' commands
    /// wait at most for one such copy. With one loop the answer is the
    /// keyspace at the time of the call; with more, a key another loop
    /// sets or deletes meanwhile may or may not be listed (SCAN's promise:
    /// a key there throughout is listed once).
    func keys(_ args: [ByteBuffer], now: Int64) -> Reply {
        let pattern = args[1].count == 1 && args[1][0] == UInt8(ascii: "*") ? nil : GlobPattern(args[1])
        var found: [Reply] = []
        var seen: Set<ByteBuffer>?
        var cursor: UInt64 = 0
        var tableSize: Int?
        repeat {
            let (keys, next, buckets) = withStore { store -> ([ByteBuffer], UInt64, Int) in
                let buckets = store.entries.bucketCount
                guard buckets > 0 else { return ([], 0, 0) }
                let mask = UInt64(buckets - 1)
                var keys: [ByteBuffer] = []
                var next = cursor
                var visits = 0
                repeat {
                    for (key, entry) in store.entries.keys(homeBucket: Int(next & mask))
                    where entry.expiresAt == 0 || entry.expiresAt > now {
                        keys.append(key.bytes)
                    }
                    next = ((next | ~mask).bitReversed &+ 1).bitReversed
                    visits += 1
                } while next != 0 && visits < 4096
                return (keys, next, buckets)
            }
            // A table resized between two copies may hand a key over twice.
            if let size = tableSize, size != buckets, seen == nil {
                seen = Set(found.map { if case .bulk(let key) = $0 { key } else { ByteBuffer() } })
            }
            tableSize = buckets
            for key in keys where pattern?.matches(key) ?? true {
                if seen != nil {
                    guard seen!.insert(key).inserted else { continue }
                }
                found.append(.bulk(key))
            }
            cursor = next
        } while cursor != 0
        return .array(found)
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
