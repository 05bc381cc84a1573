import RxUV

/// The keyspace's table: open addressing over two arrays, laid out as
/// SwissTable (Abseil's `flat_hash_map`) lays one out. `slots` holds each
/// key with its entry, in the bucket its hash picks (or the next free one,
/// by linear probing); `control` holds one byte a bucket: empty, deleted,
/// or 7 bits of the key's hash. A lookup walks the control bytes (a small
/// array, in the cache) and reads the slot only where those 7 bits match,
/// so it reads one slot, one cache miss in a table of megabytes, the same
/// as a `Dictionary` lookup.
///
/// Why not `Dictionary`: it keeps a whole key and a whole value in every
/// bucket (64 bytes here) and grows at three quarters full, so 100,000 keys
/// sat in 262,144 buckets, 168 bytes a key before a single value byte.
/// Here the table fills to seven eighths before it doubles, the control
/// bytes telling a full bucket from a free one in the cache: 100,000 keys
/// fit in 131,072 buckets, 85 bytes a key.
///
/// A removed key leaves a deleted bucket (its slot's value released at
/// once); deleted buckets are reclaimed when the table is rebuilt, which
/// happens when inserting would fill it past seven eighths (deleted buckets
/// count, so a churn of sets and deletes cannot lengthen probes for ever)
/// and when it falls below an eighth full (so a table that shrank gives its
/// memory back). Every operation is amortised O(1); a rebuild hashes each
/// key once.
struct KeyTable {
    /// A key and its entry; a free bucket's slot holds `StoredKey.vacant`
    /// and no value.
    private struct Slot {
        var key: StoredKey
        var entry: Keyspace.Entry
    }

    private var slots: ContiguousArray<Slot> = []
    /// `empty`, `deleted`, or the 7 bits of the hash of the key in the slot.
    private var control: ContiguousArray<UInt8> = []
    /// Keys in the table.
    private(set) var count = 0
    /// Buckets marked `deleted`.
    private var deletedBuckets = 0

    private static let empty: UInt8 = 0x80
    private static let deleted: UInt8 = 0xFE
    private static let vacantSlot = Slot(key: .vacant, entry: Keyspace.Entry(value: .bytes(ByteBuffer()), expiresAt: 0))

    init() {}

    /// Where a probe for `hash` starts, in a table of `mask + 1` buckets,
    /// and the control byte of a key with that hash: its top 7 bits, which
    /// the start (its low bits) does not use.
    private static func split(_ hash: Int, mask: Int) -> (start: Int, tag: UInt8) {
        (hash & mask, UInt8(truncatingIfNeeded: UInt(bitPattern: hash) >> 57))
    }

    /// The bucket of `key`, or `nil` when it is not in the table.
    func slot(of key: StoredKey) -> Int? {
        guard !control.isEmpty else { return nil }
        return control.withUnsafeBufferPointer { control in
            slots.withUnsafeBufferPointer { slots in
                let mask = control.count - 1
                var (bucket, tag) = Self.split(key.hashValue, mask: mask)
                while true {
                    let byte = control[bucket]
                    if byte == tag, slots[bucket].key == key { return bucket }
                    if byte == Self.empty { return nil }
                    bucket = (bucket + 1) & mask
                }
            }
        }
    }

    /// The entry in bucket `slot` (from `slot(of:)`), to read or replace.
    subscript(slot slot: Int) -> Keyspace.Entry {
        get { slots[slot].entry }
        set { slots[slot].entry = newValue }
    }

    /// The entry of `key`, or `nil`.
    subscript(key: StoredKey) -> Keyspace.Entry? {
        slot(of: key).map { slots[$0].entry }
    }

    /// Stores `entry` under `key`; returns the expiry of the entry it
    /// replaced, if any (only that: handing back the old value would touch
    /// its storage, a cache miss, once more).
    @discardableResult
    mutating func updateValue(_ entry: Keyspace.Entry, forKey key: StoredKey) -> Int64? {
        if let slot = slot(of: key) {
            let expiresAt = slots[slot].entry.expiresAt
            slots[slot].entry = entry
            return expiresAt
        }
        if (count + deletedBuckets + 1) * 8 > control.count * 7 {
            rebuild(forCount: count + 1)
        }
        // A key not in the table goes to the first bucket on its probe path
        // that holds none: a deleted one, or the empty one that ends it.
        let mask = control.count - 1
        var (bucket, tag) = Self.split(key.hashValue, mask: mask)
        while control[bucket] != Self.empty, control[bucket] != Self.deleted {
            bucket = (bucket + 1) & mask
        }
        if control[bucket] == Self.deleted { deletedBuckets -= 1 }
        control[bucket] = tag
        slots[bucket] = Slot(key: key, entry: entry)
        count += 1
        return nil
    }

    /// Removes `key`; returns its entry, or `nil` when it was not there.
    @discardableResult
    mutating func removeValue(forKey key: StoredKey) -> Keyspace.Entry? {
        guard let bucket = slot(of: key) else { return nil }
        let removed = slots[bucket].entry
        slots[bucket] = Self.vacantSlot
        control[bucket] = Self.deleted
        deletedBuckets += 1
        count -= 1
        if control.count > 64, count * 8 < control.count {
            rebuild(forCount: count)
        }
        return removed
    }

    /// Removes every key and gives the memory back.
    mutating func removeAll() {
        self = KeyTable()
    }

    /// The keys and their entries, in no particular order.
    var elements: some Sequence<(key: StoredKey, entry: Keyspace.Entry)> {
        slots.lazy.filter { !$0.key.isVacant }.map { ($0.key, $0.entry) }
    }

    /// Buckets in the table (a power of two, or 0 before the first key).
    var bucketCount: Int { control.count }

    /// The key in bucket `bucket`, if one is there (RANDOMKEY's draw).
    func key(inBucket bucket: Int) -> StoredKey? {
        control[bucket] & 0x80 == 0 ? slots[bucket].key : nil
    }

    /// The keys (and their entries) whose probe starts at bucket `home`:
    /// SCAN's and KEYS's unit of work.
    /// They lie between `home` and the next empty bucket, so the cost is
    /// that run's length. A cursor over home buckets in reversed-bit order
    /// (Redis's `dictScan`) visits every key that stays in the table, even
    /// across a doubling or a halving, since a key's home in the new table
    /// keeps the low bits of its home in the old one.
    func keys(homeBucket home: Int) -> [(key: StoredKey, entry: Keyspace.Entry)] {
        var found: [(key: StoredKey, entry: Keyspace.Entry)] = []
        let mask = control.count - 1
        var bucket = home
        while control[bucket] != Self.empty {
            if control[bucket] != Self.deleted, slots[bucket].key.hashValue & mask == home {
                found.append((slots[bucket].key, slots[bucket].entry))
            }
            bucket = (bucket + 1) & mask
            if bucket == home { break }
        }
        return found
    }

    /// Moves every key into a table of the fewest buckets (a power of two,
    /// at least 8) that hold `count` keys at most seven eighths full.
    private mutating func rebuild(forCount count: Int) {
        var size = 8
        while size * 7 < count * 8 { size *= 2 }
        var newSlots = ContiguousArray(repeating: Self.vacantSlot, count: size)
        var newControl = ContiguousArray(repeating: Self.empty, count: size)
        let mask = size - 1
        newControl.withUnsafeMutableBufferPointer { newControl in
            newSlots.withUnsafeMutableBufferPointer { newSlots in
                for index in slots.indices where !slots[index].key.isVacant {
                    var (bucket, tag) = Self.split(slots[index].key.hashValue, mask: mask)
                    while newControl[bucket] != Self.empty {
                        bucket = (bucket + 1) & mask
                    }
                    newControl[bucket] = tag
                    swap(&newSlots[bucket], &slots[index])
                }
            }
        }
        slots = newSlots
        control = newControl
        deletedBuckets = 0
    }
}
