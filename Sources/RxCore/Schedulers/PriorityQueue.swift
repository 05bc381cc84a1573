/// A binary min-heap ordered by a caller-supplied `isHigherPriority`.
struct PriorityQueue<Element> {
    private let isHigherPriority: (Element, Element) -> Bool
    private var elements: [Element] = []

    init(isHigherPriority: @escaping (Element, Element) -> Bool) {
        self.isHigherPriority = isHigherPriority
    }

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    func peek() -> Element? {
        elements.first
    }

    mutating func enqueue(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isHigherPriority(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func dequeue() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < elements.count, isHigherPriority(elements[left], elements[best]) { best = left }
            if right < elements.count, isHigherPriority(elements[right], elements[best]) { best = right }
            if best == parent { break }
            elements.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
