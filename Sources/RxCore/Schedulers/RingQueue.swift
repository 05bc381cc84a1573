/// A FIFO queue on a growable ring buffer: O(1) enqueue and dequeue, and no
/// allocation once its capacity has grown to the working size.
struct RingQueue<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    mutating func enqueue(_ element: Element) {
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// The element `dequeue()` would return, without removing it.
    var first: Element? {
        count > 0 ? storage[head] : nil
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    /// The elements from first to last.
    var elements: [Element] {
        (0..<count).map { storage[(head + $0) % storage.count]! }
    }

    private mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        var grown = [Element?](repeating: nil, count: newCapacity)
        for index in 0..<count {
            grown[index] = storage[(head + index) % storage.count]
        }
        storage = grown
        head = 0
    }
}
