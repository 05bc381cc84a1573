/// The key of an element in a `Bag`; used to remove exactly that element.
public struct BagKey: Hashable, Sendable {
    let rawValue: UInt64
}

/// An unordered-removal, insertion-ordered collection keyed by `BagKey`.
///
/// Insertion returns a unique key; removal by key is O(n) in the worst case but
/// the common sizes (one or a few observers) stay allocation-free apart from
/// the backing array. Iteration is in insertion order. Not thread-safe: the
/// owner guards it.
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
        guard let index = keys.lastIndex(of: key.rawValue) else { return nil }
        keys.remove(at: index)
        return values.remove(at: index)
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
