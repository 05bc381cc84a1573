/// The key of an element in a `Bag`; used to remove exactly that element.
public struct BagKey: Hashable, Sendable {
    let rawValue: UInt64
}

/// An insertion-ordered collection keyed by `BagKey`.
///
/// Insertion appends and returns a unique, increasing key; removal by key is
/// a binary search plus one array removal. Iteration is in insertion order.
/// Not thread-safe: the owner guards it.
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
        // Keys are handed out in increasing order and kept in that order, so
        // a binary search finds one in O(log n).
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
        keys.remove(at: low)
        return values.remove(at: low)
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
