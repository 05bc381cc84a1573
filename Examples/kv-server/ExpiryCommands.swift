import RxUV

/// How an expiry argument is read: seconds or milliseconds, from now or
/// as a Unix time.
struct ExpiryUnit {
    /// Milliseconds in one unit: 1000 for seconds, 1 for milliseconds.
    let milliseconds: Int64
    /// A Unix time (EXPIREAT, EXAT) rather than a time from now.
    let absolute: Bool

    static let seconds = ExpiryUnit(milliseconds: 1000, absolute: false)
    static let milliseconds = ExpiryUnit(milliseconds: 1, absolute: false)
    static let unixSeconds = ExpiryUnit(milliseconds: 1000, absolute: true)
    static let unixMilliseconds = ExpiryUnit(milliseconds: 1, absolute: true)

    /// The deadline (Unix milliseconds) of SET's, SETEX's and GETEX's
    /// `amount`, checked as Redis checks it: a positive integer whose
    /// milliseconds, plus the Unix time now when relative, stay within a
    /// signed 64-bit integer; `nil` with Redis's error otherwise.
    func setDeadline(_ amount: ByteBuffer, now: Int64, command: String) -> (deadline: Int64?, error: Reply?) {
        guard let value = RedisInteger.parse(amount) else { return (nil, .notAnInteger) }
        guard value > 0, value <= Int64.max / milliseconds else { return (nil, .invalidExpireTime(command)) }
        let base = absolute ? 0 : now
        guard value * milliseconds <= Int64.max - base else { return (nil, .invalidExpireTime(command)) }
        return (value * milliseconds + base, nil)
    }
}

/// The expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT with NX / XX
/// / GT / LT, TTL, PTTL, EXPIRETIME, PEXPIRETIME and PERSIST, with Redis's
/// replies, errors and keyspace events. Each is O(1) under the lock.
extension Keyspace {
    /// EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT key amount [NX | XX | GT | LT].
    func expire(_ args: [ByteBuffer], unit: ExpiryUnit, name: String, now: Int64) -> Reply {
        var (nx, xx, gt, lt) = (false, false, false, false)
        for option in args.dropFirst(3) {
            switch option.optionName() {
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
        guard var deadline = RedisInteger.parse(args[2]) else { return .notAnInteger }
        if unit.milliseconds == 1000 {
            guard deadline <= Int64.max / 1000, deadline >= Int64.min / 1000 else { return .invalidExpireTime(name) }
            deadline *= 1000
        }
        // The overflow is judged against the Unix time, as Redis judges it.
        let base = unit.absolute ? 0 : now
        guard deadline <= Int64.max - base else { return .invalidExpireTime(name) }
        deadline += base
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else { return .integer(0) }
            let current = entry.expiresAt
            if nx && current != 0 { return .integer(0) }
            if xx && current == 0 { return .integer(0) }
            if gt && (current == 0 || deadline <= current) { return .integer(0) }
            if lt && current != 0 && deadline >= current { return .integer(0) }
            if deadline <= now {
                store.remove(args[1])
                store.note(.generic, "del", args[1])
            } else {
                store.setExpiry(args[1], deadline)
                store.note(.generic, "expire", args[1])
            }
            return .integer(1)
        }
    }

    /// TTL, PTTL (time left, seconds rounded to the nearest), EXPIRETIME
    /// and PEXPIRETIME (the Unix time): -2 for no key, -1 for no expiry.
    func ttl(_ args: [ByteBuffer], unit: ExpiryUnit, now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now) else { return .integer(-2) }
            guard entry.expiresAt != 0 else { return .integer(-1) }
            let left = max(0, unit.absolute ? entry.expiresAt : entry.expiresAt - now)
            // Rounded without overflow: a deadline near the end of time
            // gives Redis's answer (its sum wraps to the unsigned value).
            return .integer(unit.milliseconds == 1 ? left : Int64((UInt64(left) + 500) / 1000))
        }
    }

    func persist(_ args: [ByteBuffer], now: Int64) -> Reply {
        return withStore { store in
            guard let entry = store.lookup(args[1], now: now), entry.expiresAt != 0 else { return .integer(0) }
            store.setExpiry(args[1], 0)
            store.note(.generic, "persist", args[1])
            return .integer(1)
        }
    }
}
