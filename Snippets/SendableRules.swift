// What Swift 6 checks, and what it leaves to Rx's contract.

import RxCore
import RxFoundation // HistoricalScheduler

// A subscription is Sendable: dispose it from another task or thread.
let subject = PublishSubject<Int>()
let subscription = subject.subscribe(onNext: { print("got \($0)") })
subject.onNext(1) // got 1
await Task.detached { [subscription] in
    subscription.dispose()
}.value
subject.onNext(2) // nothing: disposed from the other task

// A Disposable of your own must be Sendable; a struct of Sendable parts is.
struct Lease: Disposable {
    let name: String
    let returned = BooleanDisposable()

    func dispose() {
        returned.dispose()
    }
}
let lease = Lease(name: "printer")
await Task.detached { [lease] in
    lease.dispose()
}.value
print("\(lease.name) returned: \(lease.returned.isDisposed)") // true

// Observers and operator closures need not be Sendable: a plain class with
// mutable state, and a closure that mutates a local variable, as in RxSwift.
final class Tally: ObserverType {
    private(set) var total = 0

    func on(_ event: Event<Int>) {
        if case .next(let value) = event {
            total += value
        }
    }
}
let tally = Tally()
_ = Observable.of(1, 2, 3).subscribe(tally)
print(tally.total) // 6

func countEvens(in numbers: [Int]) -> Int {
    var count = 0
    let evens = Observable.from(numbers)
        .filter { $0 % 2 == 0 }
        .subscribe(onNext: { _ in count += 1 })
    evens.dispose()
    return count
}
print(countEvens(in: [1, 2, 3, 4])) // 2

// Scheduler actions are @Sendable: they run later or elsewhere. A value
// reaches the action as its state.
let clock = HistoricalScheduler()
_ = clock.scheduleRelative("five virtual seconds later", dueTime: .seconds(5)) { message in
    print(message)
    return Disposables.create()
}
clock.start()

// Relays and subjects are Sendable (thread-safe): hand them to another task.
let latest = BehaviorRelay(value: 0)
await Task.detached { [latest] in
    latest.accept(42)
}.value
print(latest.value) // 42
