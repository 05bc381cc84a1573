/// The key of an element in a `Bag`; used to remove exactly that element.
public struct BagKey: Hashable, Sendable {
    let rawValue: UInt64
}

/// An insertion-ordered collection keyed by `BagKey`.
///
/// Insertion appends and returns a unique, increasing key; removal by key is
/// a binary search plus one array removal (neither for the newest key).
/// Iteration is in insertion order. Not thread-safe: the owner guards it.
struct Bag<Element> {
    private var nextKey: UInt64 = 0
    private var keys: [UInt64] = []
    private var values: [Element] = []

    init() {}

    /// Adds `element` and returns the key that removes it.
    mutating func insert(_ element: Element) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        keys.append(key)
        values.append(element)
        return BagKey(rawValue: key)
    }

    /// Removes the element under `key` and returns it; `nil` if already removed.
    @discardableResult
    mutating func removeKey(_ key: BagKey) -> Element? {
        if key.rawValue == keys.last {
            // The newest element, the common case of a subscription that
            // ends before the next one starts: no search, nothing moved.
            keys.removeLast()
            return values.removeLast()
        }
        guard let index = index(of: key) else { return nil }
        keys.remove(at: index)
        return values.remove(at: index)
    }

    /// Removes the element under `key` and moves it into `removed`, which
    /// keeps its value when `key` was already removed. Returns whether an
    /// element was removed. For an existential element, the move spares
    /// `removeKey(_:)`'s copies of an `Optional`, each a call into the
    /// runtime's value witnesses.
    @discardableResult
    mutating func removeKey(_ key: BagKey, into removed: inout Element) -> Bool {
        if key.rawValue == keys.last {
            keys.removeLast()
            removed = values.removeLast()
            return true
        }
        guard let index = index(of: key) else { return false }
        keys.remove(at: index)
        removed = values.remove(at: index)
        return true
    }

    /// Replaces the element under `key` with `element`. Returns `false`
    /// (and keeps nothing) when `key` was already removed.
    mutating func replace(_ key: BagKey, with element: consuming Element) -> Bool {
        let index: Int
        if key.rawValue == keys.last {
            index = keys.count - 1
        } else if let found = self.index(of: key) {
            index = found
        } else {
            return false
        }
        values[index] = element
        return true
    }

    /// The position of `key`, found by binary search: keys are handed out in
    /// increasing order and kept in that order, so this is O(log n).
    private func index(of key: BagKey) -> Int? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key.rawValue {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < keys.count, keys[low] == key.rawValue else { return nil }
        return low
    }

    /// Removes every element.
    mutating func removeAll() {
        keys.removeAll()
        values.removeAll()
    }

    /// The number of elements.
    var count: Int { values.count }

    /// `true` when empty.
    var isEmpty: Bool { values.isEmpty }

    /// The elements in insertion order.
    var elements: [Element] { values }

    /// Calls `body` for each element in insertion order.
    func forEach(_ body: (Element) -> Void) {
        for value in values { body(value) }
    }
}
