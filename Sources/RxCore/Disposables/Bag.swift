/// The key of an element in a `Bag`; used to remove exactly that element.
public struct BagKey: Hashable, Sendable {
    let rawValue: UInt64
}

/// An insertion-ordered collection keyed by `BagKey`.
///
/// Insertion appends and returns a unique, increasing key. Removal by key is
/// a binary search that leaves an empty slot behind, so removing from the
/// middle moves nothing: a server's 10,000 connections (the inners of one
/// `flatMap`) close in O(log n) each, not O(n). The slots are compacted,
/// in one pass, once more than half are empty; the newest element is simply
/// popped. Iteration is in insertion order. Not thread-safe: the owner
/// guards it.
struct Bag<Element> {
    private var nextKey: UInt64 = 0
    /// Increasing; a removed element's key stays, with `removedFlag` set,
    /// until the next compaction. Presence is tested here, on a plain
    /// integer: reading an `Optional` slot to test it would copy its
    /// element (for an existential, calls into the runtime).
    private var keys: [UInt64] = []
    private static var removedFlag: UInt64 { 1 << 63 }
    /// `nil` where an element was removed.
    private var slots: [Element?] = []
    /// The elements present (slots that are not empty).
    private(set) var count = 0
    /// The empty slots.
    private var holes = 0

    init() {}

    /// Adds `element` and returns the key that removes it.
    mutating func insert(_ element: Element) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        keys.append(key)
        slots.append(element)
        count += 1
        return BagKey(rawValue: key)
    }

    /// A new key, increasing like `insert(_:)`'s, whose element comes
    /// later (`insert(_:for:)`), or never.
    mutating func makeKey() -> BagKey {
        let key = nextKey
        nextKey &+= 1
        return BagKey(rawValue: key)
    }

    /// Adds `element` under `key`, a key from `makeKey()` not yet used, in
    /// key order: appended when `key` is the newest (the usual case), else
    /// moved into its place.
    mutating func insert(_ element: consuming Element, for key: BagKey) {
        count += 1
        guard let last = keys.last, last & ~Self.removedFlag > key.rawValue else {
            keys.append(key.rawValue)
            slots.append(element)
            return
        }
        var index = keys.count
        while index > 0, keys[index - 1] & ~Self.removedFlag > key.rawValue {
            index -= 1
        }
        keys.insert(key.rawValue, at: index)
        slots.insert(element, at: index)
    }

    /// Removes the element under `key` and returns it; `nil` if already removed.
    @discardableResult
    mutating func removeKey(_ key: BagKey) -> Element? {
        guard let index = index(of: key) else { return nil }
        return take(at: index)
    }

    /// Removes the element under `key` and moves it into `removed`, which
    /// keeps its value when `key` was already removed. Returns whether an
    /// element was removed. For an existential element, the move spares
    /// `removeKey(_:)`'s copies of an `Optional`, each a call into the
    /// runtime's value witnesses.
    @discardableResult
    mutating func removeKey(_ key: BagKey, into removed: inout Element) -> Bool {
        guard let index = index(of: key) else { return false }
        removed = take(at: index)!
        return true
    }

    /// Replaces the element under `key` with `element`. Returns `false`
    /// (and keeps nothing) when `key` was already removed.
    mutating func replace(_ key: BagKey, with element: consuming Element) -> Bool {
        guard let index = index(of: key) else { return false }
        slots[index] = element
        return true
    }

    /// Removes every element.
    mutating func removeAll() {
        keys.removeAll()
        slots.removeAll()
        count = 0
        holes = 0
    }

    /// `true` when empty.
    @inline(__always) var isEmpty: Bool { count == 0 }

    /// The elements in insertion order.
    var elements: [Element] {
        if count == slots.count {
            return slots.map { $0.unsafelyUnwrapped }
        }
        return slots.compactMap { $0 }
    }

    /// Calls `body` for each element in insertion order.
    func forEach(_ body: (Element) -> Void) {
        for case let value? in slots { body(value) }
    }

    /// Moves the element out of the slot at `index`, which holds one, and
    /// empties the slot: pops it when it is the last (with any empty slots
    /// before it), else leaves it empty and compacts once more than half
    /// the slots are. Everything is moved and tested in place: no element
    /// is copied.
    private mutating func take(at index: Int) -> Element? {
        count -= 1
        guard index == slots.count - 1 else {
            holes += 1
            keys[index] |= Self.removedFlag
            let taken = slots.withUnsafeMutableBufferPointer { slots in
                let slot = slots.baseAddress! + index
                defer { slot.initialize(to: nil) }
                return slot.move()
            }
            if slots.count >= 16 && holes > slots.count / 2 {
                compact()
            }
            return taken
        }
        keys.removeLast()
        let taken = slots.removeLast()
        while holes > 0, keys[keys.count - 1] & Self.removedFlag != 0 {
            keys.removeLast()
            _ = slots.removeLast()
            holes -= 1
        }
        return taken
    }

    /// Drops every empty slot, keeping the order, in one pass.
    private mutating func compact() {
        var kept = 0
        for index in keys.indices where keys[index] & Self.removedFlag == 0 {
            if kept != index {
                keys[kept] = keys[index]
                slots.swapAt(kept, index)
            }
            kept += 1
        }
        keys.removeLast(keys.count - kept)
        slots.removeLast(slots.count - kept)
        holes = 0
    }

    /// The position of `key`'s element, found by binary search (keys are
    /// handed out in increasing order and kept in that order); the newest
    /// is checked first. `nil` when `key`'s element was removed.
    private func index(of key: BagKey) -> Int? {
        if key.rawValue == keys.last {
            return keys.count - 1
        }
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] & ~Self.removedFlag < key.rawValue {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < keys.count, keys[low] == key.rawValue else { return nil }
        return low
    }
}
