// Bridges between Observables and Swift concurrency, with cancellation both ways.

import RxCore

func bridges() async throws {
    // An Observable as an AsyncThrowingSequence.
    for try await word in Observable.of("one", "two", "three").values {
        print(word)
    }

    // Leaving the loop early disposes the subscription: here it stops the timer.
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ticks")
    for try await tick in Observable<Int>.interval(.milliseconds(10), scheduler: scheduler).values {
        print("tick \(tick)")
        if tick == 2 {
            break
        }
    }

    // A Single as `async throws`.
    let answer = try await Single.just(42).value
    print("answer \(answer)")

    // An async closure as a Single: one Task per subscription; disposing cancels it.
    let product = try await Single<Int>.create(work: { 6 * 7 }).value
    print("product \(product)")

    // An AsyncSequence as an Observable: one Task per subscription; disposing cancels it.
    let countdown = AsyncStream<Int> { continuation in
        for n in [3, 2, 1] {
            continuation.yield(n)
        }
        continuation.finish()
    }
    let doubled = try await countdown.asObservable().map { $0 * 2 }.toArray().value
    print(doubled) // [6, 4, 2]
}

try await bridges()
