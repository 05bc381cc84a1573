import RxUV

/// The keyspace's table: a compact hash table in two arrays, laid out as
/// CPython's `dict` and Rust's `indexmap` are. `slots` holds each key with
/// its entry, densely and in insertion order; `buckets` is the index into
/// it, open addressing with linear probing, four bytes a bucket and at most
/// three quarters full.
///
/// Why not `Dictionary`: a Swift dictionary keeps a whole key and a whole
/// value in every bucket (64 bytes here) and grows at three quarters full,
/// so 100,000 keys sat in 262,144 buckets, 168 bytes a key before a single
/// value byte. Here a 64-byte slot is paid per key (the slot array grows by
/// doubling, as every array does) and a bucket per 4 bytes: at 100,000 keys,
/// 131,072 slots and 262,144 buckets, 94 bytes a key.
///
/// A removed key leaves a vacant slot and a deleted bucket; both are
/// reclaimed when the index is rebuilt: when inserting would fill it past
/// three quarters (deleted buckets count, so a churn of sets and deletes
/// cannot lengthen probes for ever), and when vacant slots outnumber the
/// live ones (so a table that shrank gives its memory back). Every
/// operation is amortised O(1); a rebuild hashes each live key once.
struct KeyTable {
    /// A key and its entry; a removed key's slot holds `StoredKey.vacant`.
    struct Slot {
        var key: StoredKey
        var entry: Keyspace.Entry
    }

    private var slots: ContiguousArray<Slot> = []
    /// A bucket holds `empty`, `deleted` or a slot's index plus `firstSlot`.
    private var buckets: ContiguousArray<UInt32> = []
    /// Keys in the table (slots that are not vacant).
    private(set) var count = 0
    /// Buckets marked `deleted`.
    private var deletedBuckets = 0

    private static let empty: UInt32 = 0
    private static let deleted: UInt32 = 1
    private static let firstSlot: UInt32 = 2
    /// What a vacant slot's entry holds: one shared empty buffer, so that
    /// removing a key releases its value.
    private static let noValue = ByteBuffer()

    init() {}

    /// The slot of `key`, or `nil` when it is not in the table.
    func slot(of key: StoredKey) -> Int? {
        find(key)?.slot
    }

    /// Where `key` is: its bucket and its slot.
    private func find(_ key: StoredKey) -> (bucket: Int, slot: Int)? {
        guard !buckets.isEmpty else { return nil }
        return buckets.withUnsafeBufferPointer { buckets in
            slots.withUnsafeBufferPointer { slots in
                let mask = buckets.count - 1
                var bucket = key.hashValue & mask
                while true {
                    let mark = buckets[bucket]
                    if mark == Self.empty { return nil }
                    if mark != Self.deleted {
                        let slot = Int(mark - Self.firstSlot)
                        if slots[slot].key == key { return (bucket, slot) }
                    }
                    bucket = (bucket + 1) & mask
                }
            }
        }
    }

    /// The entry in `slot` (from `slot(of:)`), to read or replace.
    subscript(slot slot: Int) -> Keyspace.Entry {
        get { slots[slot].entry }
        set { slots[slot].entry = newValue }
    }

    /// The entry of `key`, or `nil`.
    subscript(key: StoredKey) -> Keyspace.Entry? {
        slot(of: key).map { slots[$0].entry }
    }

    /// Stores `entry` under `key`; returns the entry it replaced, if any.
    @discardableResult
    mutating func updateValue(_ entry: Keyspace.Entry, forKey key: StoredKey) -> Keyspace.Entry? {
        if let slot = slot(of: key) {
            defer { slots[slot].entry = entry }
            return slots[slot].entry
        }
        if (count + deletedBuckets + 1) * 4 > buckets.count * 3 {
            rebuild(forCount: count + 1)
        }
        let slot = slots.count
        slots.append(Slot(key: key, entry: entry))
        count += 1
        // A key not in the table goes to the first bucket that holds none:
        // a deleted one on its probe path, or the empty one that ends it.
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            var bucket = key.hashValue & mask
            while buckets[bucket] != Self.empty, buckets[bucket] != Self.deleted {
                bucket = (bucket + 1) & mask
            }
            if buckets[bucket] == Self.deleted { deletedBuckets -= 1 }
            buckets[bucket] = UInt32(slot) + Self.firstSlot
        }
        return nil
    }

    /// Removes `key`; returns its entry, or `nil` when it was not there.
    @discardableResult
    mutating func removeValue(forKey key: StoredKey) -> Keyspace.Entry? {
        guard let (bucket, slot) = find(key) else { return nil }
        buckets[bucket] = Self.deleted
        deletedBuckets += 1
        count -= 1
        let removed = slots[slot].entry
        slots[slot] = Slot(key: .vacant, entry: Keyspace.Entry(value: Self.noValue, expiresAt: 0))
        if slots.count - count > Swift.max(count, 64) {
            rebuild(forCount: count)
        }
        return removed
    }

    /// Removes every key and gives the memory back.
    mutating func removeAll() {
        self = KeyTable()
    }

    /// The keys and their entries, in the order they were first stored.
    var elements: some Sequence<(key: StoredKey, entry: Keyspace.Entry)> {
        slots.lazy.filter { !$0.key.isVacant }.map { ($0.key, $0.entry) }
    }

    /// Compacts the slots (vacant ones go) and makes an index with room for
    /// `count` keys at most three quarters full.
    private mutating func rebuild(forCount count: Int) {
        if slots.count > self.count {
            var live = ContiguousArray<Slot>()
            live.reserveCapacity(Swift.max(count, self.count))
            for slot in slots where !slot.key.isVacant {
                live.append(slot)
            }
            slots = live
        }
        var size = 8
        while size * 3 < count * 4 { size *= 2 }
        var buckets = ContiguousArray<UInt32>(repeating: Self.empty, count: size)
        slots.withUnsafeBufferPointer { slots in
            buckets.withUnsafeMutableBufferPointer { buckets in
                let mask = size - 1
                for (index, slot) in slots.enumerated() {
                    var bucket = slot.key.hashValue & mask
                    while buckets[bucket] != Self.empty {
                        bucket = (bucket + 1) & mask
                    }
                    buckets[bucket] = UInt32(index) + Self.firstSlot
                }
            }
        }
        self.buckets = buckets
        deletedBuckets = 0
    }
}
