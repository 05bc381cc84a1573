/// A FIFO queue on a growable ring buffer: O(1) enqueue and dequeue, and no
/// allocation once its capacity has grown to the working size.
@usableFromInline
struct RingQueue<Element> {
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable @inline(__always) var isEmpty: Bool { count == 0 }

    @inlinable mutating func enqueue(_ element: Element) {
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    @inlinable mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// The element `dequeue()` would return, without removing it.
    @inlinable var first: Element? {
        count > 0 ? storage[head] : nil
    }

    @inlinable mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    /// The elements from first to last.
    @inlinable var elements: [Element] {
        (0..<count).map { storage[(head + $0) % storage.count]! }
    }

    @inlinable mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        var grown = [Element?](repeating: nil, count: newCapacity)
        for index in 0..<count {
            grown[index] = storage[(head + index) % storage.count]
        }
        storage = grown
        head = 0
    }
}
