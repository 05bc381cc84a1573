import RxUV

/// SET and its relatives (SETNX, SETEX, PSETEX, GETSET, GETEX), with
/// Redis's option rules, replies, errors and keyspace events. Each takes
/// the lock once and does O(1) work there besides copying the value.
extension Keyspace {
    /// SET's and GETEX's options, read as Redis reads them: each at most
    /// once in its group, case-insensitive, anything else a syntax error.
    struct StringOptions {
        var onlyIfAbsent = false
        var onlyIfPresent = false
        var returnOld = false
        var keepTTL = false
        var persist = false
        /// Where EX's, PX's, EXAT's or PXAT's argument is in the command
        /// (0: none), read in `expiryUnit`. An index, not the buffer: the
        /// options stay plain values, copied for nothing.
        var expiryIndex = 0
        var expiryUnit = ExpiryUnit(milliseconds: 1000, absolute: false)

        /// The options from `args[start...]`; `nil` for a syntax error.
        /// `forSet` allows NX, XX, GET and KEEPTTL; otherwise (GETEX)
        /// PERSIST.
        init?(_ args: [ByteBuffer], from start: Int, forSet: Bool) {
            var index = start
            while index < args.count {
                let option = args[index].optionName()
                let next = index + 1 < args.count ? args[index + 1] : nil
                let timed = expiryIndex != 0
                switch option {
                case "NX" where forSet && !onlyIfPresent: onlyIfAbsent = true
                case "XX" where forSet && !onlyIfAbsent: onlyIfPresent = true
                case "GET" where forSet: returnOld = true
                case "KEEPTTL" where forSet && !timed: keepTTL = true
                case "PERSIST" where !forSet && !timed && !keepTTL: persist = true
                case "EX", "PX", "EXAT", "PXAT":
                    let unit: ExpiryUnit = [
                        "EX": .seconds, "PX": .milliseconds, "EXAT": .unixSeconds, "PXAT": .unixMilliseconds,
                    ][option]!
                    // The same option again is allowed (the last one counts); another is not.
                    let same = !timed || (expiryUnit.milliseconds == unit.milliseconds && expiryUnit.absolute == unit.absolute)
                    guard next != nil, same, !keepTTL, !persist else { return nil }
                    expiryIndex = index + 1
                    expiryUnit = unit
                    index += 1
                default:
                    return nil
                }
                index += 1
            }
        }
    }

    /// SET key value [NX | XX] [GET] [EX | PX | EXAT | PXAT time | KEEPTTL]
    func set(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let options = StringOptions(args, from: 3, forSet: true) else { return .syntaxError }
        return store(args, 1, 2, options, command: "set", now: now, done: .ok, skipped: .null)
    }

    /// SETNX key value: 1 when set, 0 when the key exists.
    func setnx(_ args: [ByteBuffer], now: Int64) -> Reply {
        var options = StringOptions(args, from: 3, forSet: true)!
        options.onlyIfAbsent = true
        return store(args, 1, 2, options, command: "setnx", now: now, done: .integer(1), skipped: .integer(0))
    }

    /// SETEX / PSETEX key time value.
    func setex(_ args: [ByteBuffer], unit: ExpiryUnit, command: String, now: Int64) -> Reply {
        var options = StringOptions(args, from: 4, forSet: true)!
        options.expiryIndex = 2
        options.expiryUnit = unit
        return store(args, 1, 3, options, command: command, now: now, done: .ok, skipped: .null)
    }

    /// GETSET key value: the old value (or nil), and the key set without
    /// an expiry.
    func getset(_ args: [ByteBuffer], now: Int64) -> Reply {
        var options = StringOptions(args, from: 3, forSet: true)!
        options.returnOld = true
        return store(args, 1, 2, options, command: "getset", now: now, done: .ok, skipped: .null)
    }

    /// Redis's `setGenericCommand`: the expiry checked first, then the old
    /// value read (GET), the key's presence weighed (NX / XX), the value
    /// stored (an expiry kept only with KEEPTTL), and the events `set`
    /// and `expire`.
    private func store(
        _ args: [ByteBuffer], _ keyIndex: Int, _ valueIndex: Int, _ options: StringOptions, command: String, now: Int64, done: Reply,
        skipped: Reply
    ) -> Reply {
        let (key, value) = (args[keyIndex], args[valueIndex])
        var deadline: Int64 = 0
        if options.expiryIndex != 0 {
            let checked = options.expiryUnit.setDeadline(args[options.expiryIndex], now: now, command: command)
            guard let at = checked.deadline else { return checked.error! }
            deadline = at
        }
        // Plain values into the closure, not the options (a copy of them
        // costs more than the whole SET).
        let (absent, present, returnOld, keepTTL) = (options.onlyIfAbsent, options.onlyIfPresent, options.returnOld, options.keepTTL)
        let timed = options.expiryIndex != 0
        // A plain SET replaces without looking first (one hash of the
        // key, not two).
        let needsOld = absent || present || returnOld || keepTTL
        return withStore { store in
            let old = needsOld ? store.lookup(key, now: now) : nil
            if (absent && old != nil) || (present && old == nil) {
                return returnOld ? old?.value.reply ?? .null : skipped
            }
            store.set(key, value, expiresAt: keepTTL ? old?.expiresAt ?? 0 : deadline)
            store.note(.string, "set", key)
            if timed { store.note(.generic, "expire", key) }
            return returnOld ? old?.value.reply ?? .null : done
        }
    }

    /// GETEX key [EX | PX | EXAT | PXAT time | PERSIST]: the value, and
    /// its expiry changed. A Unix time already past deletes the key.
    func getex(_ args: [ByteBuffer], now: Int64) -> Reply {
        guard let options = StringOptions(args, from: 2, forSet: false) else { return .syntaxError }
        let key = args[1]
        return withStore { store in
            guard let entry = store.lookup(key, now: now) else { return .null }
            var deadline: Int64 = 0
            if options.expiryIndex != 0 {
                let checked = options.expiryUnit.setDeadline(args[options.expiryIndex], now: now, command: "getex")
                guard let at = checked.deadline else { return checked.error! }
                deadline = at
            }
            if options.expiryIndex != 0, options.expiryUnit.absolute, deadline <= now {
                store.remove(key)
                store.note(.generic, "del", key)
            } else if options.expiryIndex != 0 {
                store.setExpiry(key, deadline)
                store.note(.generic, "expire", key)
            } else if options.persist, entry.expiresAt != 0 {
                store.setExpiry(key, 0)
                store.note(.generic, "persist", key)
            }
            return entry.value.reply
        }
    }
}
