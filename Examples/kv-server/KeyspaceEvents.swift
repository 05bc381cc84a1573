import RxUV

/// Redis's keyspace notification classes, the `notify-keyspace-events`
/// setting: which events are published, and on which channels
/// (`K`: `__keyspace@0__:<key>` with the event as message, `E`:
/// `__keyevent@0__:<event>` with the key as message).
struct KeyspaceEventClasses: OptionSet, Sendable {
    let rawValue: Int

    static let keyspace = Self(rawValue: 1 << 0)
    static let keyevent = Self(rawValue: 1 << 1)
    static let generic = Self(rawValue: 1 << 2)
    static let string = Self(rawValue: 1 << 3)
    static let list = Self(rawValue: 1 << 4)
    static let set = Self(rawValue: 1 << 5)
    static let hash = Self(rawValue: 1 << 6)
    static let zset = Self(rawValue: 1 << 7)
    static let expired = Self(rawValue: 1 << 8)
    static let evicted = Self(rawValue: 1 << 9)
    static let stream = Self(rawValue: 1 << 10)
    static let keyMiss = Self(rawValue: 1 << 11)
    static let module = Self(rawValue: 1 << 13)
    static let new = Self(rawValue: 1 << 14)
    /// `A`: every class but key misses and new keys, as Redis has it.
    static let all: Self = [.generic, .string, .list, .set, .hash, .zset, .expired, .evicted, .stream, .module]

    /// The classes one letter of the setting stands for, in Redis's letters.
    private static let letters: [(UInt8, Self)] = [
        (UInt8(ascii: "A"), .all), (UInt8(ascii: "g"), .generic), (UInt8(ascii: "$"), .string),
        (UInt8(ascii: "l"), .list), (UInt8(ascii: "s"), .set), (UInt8(ascii: "h"), .hash),
        (UInt8(ascii: "z"), .zset), (UInt8(ascii: "x"), .expired), (UInt8(ascii: "e"), .evicted),
        (UInt8(ascii: "K"), .keyspace), (UInt8(ascii: "E"), .keyevent), (UInt8(ascii: "t"), .stream),
        (UInt8(ascii: "m"), .keyMiss), (UInt8(ascii: "d"), .module), (UInt8(ascii: "n"), .new),
    ]

    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The setting's letters read as Redis reads them (up to a NUL, as C
    /// does); `nil` when one stands for no class.
    init?(setting: ByteBuffer) {
        var classes: Self = []
        for byte in setting.prefix(while: { $0 != 0 }) {
            guard let (_, named) = Self.letters.first(where: { $0.0 == byte }) else { return nil }
            classes.formUnion(named)
        }
        self = classes
    }

    /// The setting as CONFIG GET writes it: `A` for all, else the classes
    /// in Redis's order, then `K`, `E` and `m`.
    var setting: String {
        var text = ""
        if isSuperset(of: .all) {
            text = "A"
        } else {
            let order: [(Character, Self)] = [
                ("g", .generic), ("$", .string), ("l", .list), ("s", .set), ("h", .hash), ("z", .zset),
                ("x", .expired), ("e", .evicted), ("t", .stream), ("d", .module), ("n", .new),
            ]
            for (letter, kind) in order where contains(kind) { text.append(letter) }
        }
        if contains(.keyspace) { text.append("K") }
        if contains(.keyevent) { text.append("E") }
        if contains(.keyMiss) { text.append("m") }
        return text
    }
}

/// One keyspace event: what happened (`set`, `expire`, `expired`, …), of
/// which class, to which key. Collected while a command holds the
/// keyspace's lock, published after it lets go.
struct KeyspaceEvent {
    let kind: KeyspaceEventClasses
    let name: StaticString
    let key: ByteBuffer

    private static let keyspacePrefix = Array("__keyspace@0__:".utf8)
    private static let keyeventPrefix = Array("__keyevent@0__:".utf8)

    /// Publishes the event on the channels `classes` asks for: the
    /// key's channel, then the event's, as Redis does.
    func publish(to pubSub: PubSub, classes: KeyspaceEventClasses) {
        let event = ByteBuffer(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        if classes.contains(.keyspace) {
            _ = pubSub.publish(channel: ByteBuffer(Self.keyspacePrefix) + key, message: event)
        }
        if classes.contains(.keyevent) {
            _ = pubSub.publish(channel: ByteBuffer(Self.keyeventPrefix) + event, message: key)
        }
    }
}
