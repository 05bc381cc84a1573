import RxUV
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one keyspace every connection of every loop shares: strings with an
/// optional expiry, behind one lock.
///
/// A command takes the lock once, for a few hundred nanoseconds; with
/// `--threads 1` it is never contended, and with more loops two commands
/// wait for each other only while one of them runs (see README.md for
/// what that costs). Keys and values are stored as compact copies, so a
/// stored key never keeps a whole read buffer alive.
///
/// Expiry is Redis's: lazy (a key found expired on access is deleted then)
/// plus an active sweep (`sweep(now:limit:)`, on a timer) that deletes keys
/// nobody asks for again, in deadline order.
final class Keyspace: Sendable {
    struct Entry {
        var value: StoredValue
        /// When it expires, in `Keyspace.now()` milliseconds (Unix time);
        /// 0: never.
        var expiresAt: Int64
    }

    struct Store {
        private(set) var entries = KeyTable()
        /// The `notify-keyspace-events` classes (CONFIG SET).
        var notifying: KeyspaceEventClasses = []
        /// The events of the running command, published once the lock is
        /// released (`Keyspace.withStore`).
        fileprivate(set) var events: [KeyspaceEvent] = []
        /// How many entries have an expiry.
        private(set) var expiring = 0
        private var deadlines = ExpiryHeap()

        /// The live entry of `key` at `now`; an expired one is deleted.
        mutating func lookup(_ key: ByteBuffer, now: Int64) -> Entry? {
            liveIndex(of: key, now: now).map { entries[slot: $0] }
        }

        /// The slot of the live entry of `key` at `now`; an expired one is
        /// deleted. Reading the entry and replacing its value through the
        /// slot (INCR) hashes the key once in all.
        mutating func liveIndex(of key: ByteBuffer, now: Int64) -> Int? {
            let key = StoredKey(key, copyingLong: false)
            guard let index = entries.slot(of: key) else { return nil }
            let expiresAt = entries[slot: index].expiresAt
            if expiresAt != 0, expiresAt <= now {
                remove(key)
                note(.expired, "expired", key.bytes)
                return nil
            }
            return index
        }

        /// Records a keyspace event, when the `notify-keyspace-events`
        /// classes ask for it (a flag test when they do not).
        mutating func note(_ kind: KeyspaceEventClasses, _ name: StaticString, _ key: ByteBuffer) {
            guard notifying.contains(kind), !notifying.isDisjoint(with: [.keyspace, .keyevent]) else { return }
            events.append(KeyspaceEvent(kind: kind, name: name, key: key))
        }

        /// Replaces the value in slot `index` (from `liveIndex`), keeping
        /// its expiry.
        mutating func replaceValue(at index: Int, with value: StoredValue) {
            entries[slot: index].value = value
        }

        /// Stores `value` under `key` with `expiresAt` (0: no expiry). The
        /// value is copied unless `compact` says it is a buffer of its own.
        mutating func set(_ key: ByteBuffer, _ value: ByteBuffer, expiresAt: Int64, compact: Bool = false) {
            set(key, StoredValue(value, compact: compact), expiresAt: expiresAt)
        }

        /// Stores `value` under `key` with `expiresAt` (0: no expiry).
        mutating func set(_ key: ByteBuffer, _ value: StoredValue, expiresAt: Int64) {
            let stored = StoredKey(key, copyingLong: true)
            let oldExpiry = entries.updateValue(Entry(value: value, expiresAt: expiresAt), forKey: stored)
            if oldExpiry == nil { note(.new, "new", key) }
            if oldExpiry ?? 0 != 0 { expiring -= 1 }
            if expiresAt != 0 { noteExpiry(stored, expiresAt) }
        }

        /// Replaces the value of an existing `key`, keeping its expiry. The
        /// value is copied unless `compact` says it is a buffer of its own.
        mutating func replaceValue(_ key: ByteBuffer, _ value: ByteBuffer, compact: Bool = false) {
            guard let slot = entries.slot(of: StoredKey(key, copyingLong: false)) else { return }
            entries[slot: slot].value = StoredValue(value, compact: compact)
        }

        /// Sets or clears (0) the expiry of an existing `key`.
        mutating func setExpiry(_ key: ByteBuffer, _ expiresAt: Int64) {
            let stored = StoredKey(key, copyingLong: true)
            guard let slot = entries.slot(of: stored) else { return }
            let old = entries[slot: slot].expiresAt
            entries[slot: slot].expiresAt = expiresAt
            if old != 0 { expiring -= 1 }
            if expiresAt != 0 { noteExpiry(stored, expiresAt) }
        }

        @discardableResult
        mutating func remove(_ key: ByteBuffer) -> Entry? {
            remove(StoredKey(key, copyingLong: false))
        }

        @discardableResult
        private mutating func remove(_ key: StoredKey) -> Entry? {
            guard let old = entries.removeValue(forKey: key) else { return nil }
            if old.expiresAt != 0 { expiring -= 1 }
            return old
        }

        mutating func removeAll() {
            entries.removeAll()
            expiring = 0
            deadlines = ExpiryHeap()
        }

        private mutating func noteExpiry(_ key: StoredKey, _ expiresAt: Int64) {
            expiring += 1
            deadlines.push(expiresAt, key)
            // Deadlines of keys whose expiry changed stay in the heap until
            // they come due; rebuilt when they outnumber the live ones, so a
            // client that keeps moving a far expiry cannot grow it forever.
            if deadlines.count > 2 * expiring + 1024 {
                deadlines = ExpiryHeap(entries.elements.lazy.filter { $0.entry.expiresAt != 0 }.map { ($0.entry.expiresAt, $0.key) })
            }
        }

        /// Deletes up to `limit` keys whose deadline passed; returns how many.
        mutating func sweep(now: Int64, limit: Int) -> Int {
            var deleted = 0
            var looked = 0
            while looked < limit, let (deadline, key) = deadlines.popDue(now: now) {
                looked += 1
                // A stale deadline: the key is gone or its expiry moved.
                guard let entry = entries[key], entry.expiresAt == deadline else { continue }
                remove(key)
                note(.expired, "expired", key.bytes)
                deleted += 1
            }
            return deleted
        }
    }

    private let store = Mutex(Store())
    /// Where keyspace events are published.
    private let pubSub: PubSub

    init(pubSub: PubSub) {
        self.pubSub = pubSub
    }

    /// Runs `body` with the store, under the lock, then publishes the
    /// keyspace events it recorded, after the lock is released. Never call
    /// out (write, publish) from inside.
    func withStore<Result>(_ body: (inout Store) -> Result) -> Result {
        // Nil (nothing to retain or release) unless the command recorded
        // events.
        var events: [KeyspaceEvent]?
        var classes = KeyspaceEventClasses()
        let result = store.withLock { store in
            let result = body(&store)
            if !store.events.isEmpty {
                events = store.events
                store.events = []
                classes = store.notifying
            }
            return result
        }
        if let events {
            for event in events { event.publish(to: pubSub, classes: classes) }
        }
        return result
    }

    /// The keyspace's clock: Unix time in milliseconds, as Redis's
    /// `mstime()`. Expiry deadlines are Unix times (EXPIREAT, EXPIRETIME),
    /// and an expiry's overflow is judged against this base, as Redis
    /// judges it.
    static func now() -> Int64 {
        unixMilliseconds(monotonic: Loop.monotonicNanoseconds)
    }

    /// The Unix time in milliseconds at `monotonic` (nanoseconds on the
    /// monotonic clock, which a command reads once anyway for its
    /// duration): one clock reading a command, not two. The offset between
    /// the clocks is read again with each sweep, ten times a second, so a
    /// step of the wall clock is followed within 100 ms.
    static func unixMilliseconds(monotonic: Int64) -> Int64 {
        (monotonic + wallClockOffset.load(ordering: .relaxed)) / 1_000_000
    }

    /// Unix time minus monotonic time, in nanoseconds.
    private static let wallClockOffset = Atomic<Int64>(measuredWallClockOffset())

    private static func measuredWallClockOffset() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) - Loop.monotonicNanoseconds
    }

    /// Keys, and keys with an expiry, for INFO.
    var counts: (keys: Int, expiring: Int) {
        withStore { ($0.entries.count, $0.expiring) }
    }

    /// The active half of expiry: deletes keys whose time passed, at most
    /// `limit` a call so one sweep never holds the lock for long.
    func sweep(limit: Int = 2000) -> Int {
        Self.wallClockOffset.store(Self.measuredWallClockOffset(), ordering: .relaxed)
        let now = Self.now()
        return withStore { $0.sweep(now: now, limit: limit) }
    }
}
