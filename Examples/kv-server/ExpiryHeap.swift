/// A min-heap of (deadline, key): the keys with an expiry in the order they
/// come due, for the keyspace's active sweep.
struct ExpiryHeap {
    private var items: [(deadline: Int64, key: StoredKey)] = []

    init() {}

    init<Items: Sequence>(_ items: Items) where Items.Element == (Int64, StoredKey) {
        self.items = items.map { (deadline: $0.0, key: $0.1) }
        for index in stride(from: self.items.count / 2 - 1, through: 0, by: -1) {
            siftDown(index)
        }
    }

    var count: Int { items.count }

    mutating func push(_ deadline: Int64, _ key: StoredKey) {
        items.append((deadline, key))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].deadline < items[parent].deadline else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if its deadline is at or
    /// before `now`.
    mutating func popDue(now: Int64) -> (Int64, StoredKey)? {
        guard let first = items.first, first.deadline <= now else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return (first.deadline, first.key)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { return }
            var smallest = left
            if left + 1 < items.count, items[left + 1].deadline < items[left].deadline { smallest = left + 1 }
            guard items[smallest].deadline < items[parent].deadline else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
