// A store that hands out a read-only Property: readers see the current value
// and every change; only the store can set it.

import RxCore

final class Counter {
    /// The count, read-only to everyone outside the store.
    let count: Property<Int>
    private let relay: BehaviorRelay<Int>

    init() {
        let relay = BehaviorRelay(value: 0)
        self.relay = relay
        count = Property(relay)
    }

    func increment() {
        relay.accept(relay.value + 1)
    }
}

let counter = Counter()
let everything = counter.count.subscribe(onNext: { print("count \($0)") }) // count 0: the current value first
let changes = counter.count.changed.subscribe(onNext: { print("changed to \($0)") })

counter.increment() // count 1, changed to 1
counter.increment() // count 2, changed to 2
print(counter.count.value) // 2

everything.dispose()
changes.dispose()
